// A FIFO named as FILE (stranger review of issue 29): the CLI refuses it at once, as the file tools do, instead of
// waiting without end for a writer, and says how to read a pipe: - as FILE, where the shell opens it.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '../packages/agent/src/cli/main.js';
import { buildCliForTests } from './support/build-cli.js';
import { captureOutput } from './support/capture-output.js';

let dir: string;
let fifo: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'glimpse-fifo-'));
  fifo = join(dir, 'shot.png');
  execFileSync('mkfifo', [fifo]);
});

afterAll(() => rm(dir, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

describe('a FIFO as FILE', () => {
  it('every command that reads FILE refuses it with E_NOT_A_FILE and the way to read it, without opening it', async () => {
    for (const argv of [
      ['process', fifo, '-o', join(dir, 'out.png')],
      ['inspect', fifo],
      ['tiles', fifo, '-o', join(dir, 'tiles')],
      ['text', fifo],
    ]) {
      const io = captureOutput();
      const started = process.hrtime.bigint();
      expect(await main(argv), argv[0]).toBe(1);
      vi.restoreAllMocks();
      expect(Number(process.hrtime.bigint() - started) / 1e6, argv[0]).toBeLessThan(5000);
      expect(io.stdout.join('')).toBe('');
      expect(JSON.parse(io.stderr.join(''))).toEqual({
        error: {
          code: 'E_NOT_A_FILE',
          message: `${fifo} is a named pipe, socket or device, not a regular file, and a FILE must be a regular file. Give - as FILE to read it from stdin instead (glimpse … - < ${fifo}, or cmd | glimpse … -).`,
        },
      });
    }
  });

  it('read from stdin with -, the pipe is read once its writer comes', async () => {
    const bundle = await buildCliForTests('glimpse-fifo-test');
    const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#08f' } })
      .png()
      .toBuffer();
    const child = spawn('sh', ['-c', `"${process.execPath}" "${bundle}" inspect - < "${fifo}"`], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    await writeFile(fifo, png);
    expect(await exited).toBe(0);
    expect(JSON.parse(out)).toMatchObject({ mediaType: 'image/png', width: 64, height: 48, bytes: png.byteLength });
  }, 60_000);
});
