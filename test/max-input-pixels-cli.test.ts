// A refusal that names a flag names one the command has: the pixel budget (E_TOO_MANY_PIXELS) tells the user to
// raise --max-input-pixels, so every command whose files can meet it takes that flag, with the same meaning
// (process, tiles, prepare, and the MCP server's view_file); a --font over the font cap names that cap.
import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildCliForTests } from './support/build-cli.js';
import { runCli } from './support/run-cli.js';
import { assertStrictlyValid } from './support/strict-oracle.js';

let dir: string;
let screen: string;
// 1600×1000 = 1.6 MP: over a 1 MP budget, well under the 100 MP default.
const BUDGET = '1000000';

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'glimpse-max-input-pixels-'));
  screen = join(dir, 'screen.png');
  await sharp({ create: { width: 1600, height: 1000, channels: 3, background: '#2a6' } })
    .png()
    .toFile(screen);
});

afterAll(() => rm(dir, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

const run = runCli;

const REFUSAL = /The image declares 1600×1000 pixels \(1\.6 MP\); the limit is 1\.0 MP .*--max-input-pixels/;
/** What the model reads of it: the facts and what it can do, no host flag (model-error-text.ts). */
const MODEL_REFUSAL =
  /The image declares 1600×1000 pixels \(1\.6 MP\); the limit is 1\.0 MP and 65535 px per side\. It is larger than this host opens, so no part of it can be shown\. Ask the user for a smaller copy/;

describe('--max-input-pixels', () => {
  it('every command that meets the refusal lists the flag its hint names', async () => {
    for (const command of ['process', 'tiles', 'prepare', 'mcp']) {
      const { code, out, err } = await run(command, '--help');
      expect(code, command).toBe(0);
      expect(out + err, command).toMatch(/--max-input-pixels N +refuse/);
    }
  });

  it('glimpse tiles refuses an image over the budget (exit 1, E_TOO_MANY_PIXELS) and tiles it without', async () => {
    const refused = await run('tiles', screen, '-o', join(dir, 'refused'), '--max-input-pixels', BUDGET);
    expect(refused.code).toBe(1);
    expect(refused.out).toBe('');
    const { error } = JSON.parse(refused.err.trim());
    expect(error.code).toBe('E_TOO_MANY_PIXELS');
    expect(error.message).toMatch(REFUSAL);
    const tiled = await run('tiles', screen, '-o', join(dir, 'tiled'), '--max-input-pixels', '1600000');
    expect(tiled.code).toBe(0);
    expect(JSON.parse(tiled.out).tiles.length).toBeGreaterThan(0);
  });

  it('glimpse prepare answers the view_file call with the refusal as an error note', async () => {
    const refused = await run('prepare', screen, '--provider', 'anthropic', '--max-input-pixels', BUDGET);
    expect(refused.code).toBe(0);
    const result = JSON.parse(refused.out).messages[2].content[0];
    expect(result.type).toBe('tool_result');
    expect(result.is_error).toBe(true);
    expect(JSON.stringify(result.content)).toMatch(MODEL_REFUSAL);
    expect(JSON.stringify(result.content)).not.toMatch(/max-input-pixels|maxInputPixels/);
    const sent = await run('prepare', screen, '--provider', 'anthropic');
    expect(JSON.stringify(JSON.parse(sent.out).messages[2].content[0].content)).toContain('"type":"image"');
  });

  it('glimpse mcp --max-input-pixels refuses in its view_file worker; without it the image is sent', async () => {
    const bundle = await buildCliForTests('glimpse-max-input-pixels-test');
    const connect = async (flags: string[]) => {
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [bundle, 'mcp', '--root', dir, ...flags],
        stderr: 'pipe',
      });
      const client = new Client({ name: 'glimpse-test', version: '0.0.0' });
      await client.connect(transport);
      return client;
    };
    const limited = await connect(['--max-input-pixels', BUDGET]);
    const open = await connect([]);
    try {
      const refused = await limited.callTool({ name: 'view_file', arguments: { path: 'screen.png' } });
      expect(refused.isError).toBe(true);
      const content = refused.content as { type: string; text?: string }[];
      expect(content.map((c) => c.type)).toEqual(['text']);
      expect(content[0]!.text).toMatch(/^E_TOO_MANY_PIXELS: /);
      expect(content[0]!.text).toMatch(MODEL_REFUSAL);
      expect(content[0]!.text).not.toMatch(/max-input-pixels|maxInputPixels/);
      const sent = await open.callTool({ name: 'view_file', arguments: { path: 'screen.png' } });
      expect(sent.isError).not.toBe(true);
      const image = (sent.content as { type: string; data?: string }[]).find((c) => c.type === 'image');
      expect(image).toBeDefined();
      await assertStrictlyValid(Buffer.from(image!.data!, 'base64'));
    } finally {
      await limited.close();
      await open.close();
    }
  }, 120_000);
});

describe('the read caps a refusal names', () => {
  it('a --font file over the font cap names that cap, not --max-file-bytes (which does not apply to it)', async () => {
    const big = join(dir, 'huge.ttf');
    const handle = await open(big, 'w');
    await handle.write(Buffer.from([0, 1, 0, 0]));
    await handle.truncate(64 * 2 ** 20 + 1); // sparse: one byte over the cap
    await handle.close();
    const svg = join(dir, 'label.svg');
    await writeFile(svg, '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><text y="15">hi</text></svg>');
    const { code, err } = await run('process', svg, '-o', join(dir, 'label.png'), '--font', big);
    expect(code).toBe(1);
    const { error } = JSON.parse(err.trim());
    expect(error.code).toBe('E_FILE_TOO_LARGE');
    expect(error.message).toBe(
      `--font ${big} is over 67108864 bytes (64 MiB), the most a font file may be; a CJK collection is 20–30 MB. Give a font file of one face or collection under that size.`,
    );
  });
});
