// What tesseract (Debian tesseract-ocr, scripts/install-test-tools.sh) reads in an image: its words, lower
// case. The oracle for "can a model read this": if an OCR engine cannot read a word at the size the model
// works at, the model is guessing.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import type { Region } from '@glimpse/media';
import type { WordGrid } from '../fixtures/word-grid.js';

const run = promisify(execFile);

/** The words tesseract reads in `image` (any format sharp reads); one thread, so parallel tests do not fight. */
export async function readWords(image: Uint8Array): Promise<string[]> {
  const dir = await mkdtemp(join(tmpdir(), 'glimpse-ocr-'));
  try {
    const file = join(dir, 'in.png');
    await writeFile(file, await sharp(image).png({ compressionLevel: 1 }).toBuffer());
    const { stdout } = await run('tesseract', [file, 'stdout', '--psm', '6'], {
      env: { ...process.env, OMP_THREAD_LIMIT: '1' },
      maxBuffer: 64 * 2 ** 20,
    });
    return stdout
      .toLowerCase()
      .split(/[^a-z]+/)
      .filter(Boolean);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** `region` of `image`, as PNG bytes (a strip of a tile, to read fewer pixels). */
export async function cut(image: Uint8Array, region: Region): Promise<Uint8Array> {
  return new Uint8Array(
    await sharp(image)
      .extract({ left: region.x, top: region.y, width: region.width, height: region.height })
      .png({ compressionLevel: 1 })
      .toBuffer(),
  );
}

/** The grid's page as a PNG, drawn by librsvg (sharp) with the system's DejaVu Sans. */
export async function drawGrid(grid: WordGrid): Promise<Uint8Array> {
  return new Uint8Array(await sharp(grid.svg, { limitInputPixels: false }).png({ compressionLevel: 6 }).toBuffer());
}
