// Fonts for SVG text in view_file: the caller's `fonts`, and `fallbackFonts` asked only when text is left out.
import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { MemoryFileSystem } from '../fs/memory-file-system.js';
import type { ToolResult } from '../types.js';
import { createFileTools } from './file-tools.js';

const CJK_FONT = '/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf'; // scripts/install-test-tools.sh
const LABELS =
  '<svg xmlns="http://www.w3.org/2000/svg" width="240" height="80"><rect width="240" height="80" fill="#fff"/>' +
  '<text x="10" y="55" font-size="40" fill="#000">你好世界</text></svg>';
const PLAIN =
  '<svg xmlns="http://www.w3.org/2000/svg" width="240" height="80"><rect width="240" height="80" fill="#fff"/>' +
  '<text x="10" y="55" font-size="40" fill="#000">Hello</text></svg>';
const CAPABILITIES = { imageInput: true, pdfInput: true, mediaInToolResults: true, preset: 'anthropic' } as const;

let cjk: Uint8Array;
let fileSystem: MemoryFileSystem;
beforeAll(async () => {
  cjk = new Uint8Array(await readFile(CJK_FONT));
  fileSystem = new MemoryFileSystem({
    files: { '/w/labels.svg': new TextEncoder().encode(LABELS), '/w/plain.svg': new TextEncoder().encode(PLAIN) },
  });
});

/** Pixels darker than mid-grey in the image view_file attached: the drawn glyphs (the background is white). */
async function inkOf(result: ToolResult): Promise<number> {
  const image = result.parts.find((part) => part.type === 'image');
  if (image?.type !== 'image') throw new Error('expected an image part');
  const { data } = await sharp(Buffer.from(image.data, 'base64'))
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return data.filter((value) => value < 128).length;
}

const text = (result: ToolResult) => result.parts.map((part) => (part.type === 'text' ? part.text : '')).join('\n');

describe('view_file fonts for SVG text', () => {
  it('leaves CJK labels out without a font that has them, and draws them with `fonts`', async () => {
    const bare = await createFileTools({ fileSystem, root: '/w', capabilities: CAPABILITIES }).viewFile.execute({
      path: 'labels.svg',
    });
    const withFont = await createFileTools({
      fileSystem,
      root: '/w',
      capabilities: CAPABILITIES,
      fonts: [cjk],
    }).viewFile.execute({ path: 'labels.svg' });
    expect(await inkOf(bare)).toBe(0);
    expect(text(bare)).toMatch(/Han \(Chinese characters\)/);
    // Four 40-px ideographs: hundreds of dark pixels.
    expect(await inkOf(withFont)).toBeGreaterThan(800);
    expect(text(withFont)).not.toMatch(/could not be drawn/);
  });

  it('asks fallbackFonts only for text left out, with the scripts missing, and draws with what it gives', async () => {
    const asked: string[][] = [];
    const tools = createFileTools({
      fileSystem,
      root: '/w',
      capabilities: CAPABILITIES,
      fallbackFonts: async (scripts) => {
        asked.push([...scripts]);
        return [cjk];
      },
    });
    const plain = await tools.viewFile.execute({ path: 'plain.svg' });
    expect(await inkOf(plain)).toBeGreaterThan(300);
    expect(asked).toEqual([]);
    const labels = await tools.viewFile.execute({ path: 'labels.svg' });
    expect(asked).toEqual([['Han (Chinese characters)']]);
    expect(await inkOf(labels)).toBeGreaterThan(800);
  });

  it('keeps the first drawing when the fallback has no font for the script', async () => {
    const tools = createFileTools({
      fileSystem,
      root: '/w',
      capabilities: CAPABILITIES,
      fallbackFonts: async () => [],
    });
    const labels = await tools.viewFile.execute({ path: 'labels.svg' });
    expect(labels.isError).toBe(false);
    expect(await inkOf(labels)).toBe(0);
    expect(text(labels)).toMatch(/Han \(Chinese characters\)/);
  });
});
