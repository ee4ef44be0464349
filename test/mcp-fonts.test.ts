// Fonts for SVG text over MCP: `glimpse mcp --font FILE` and the system's fonts reach the view workers, where
// SVGs are drawn; `--no-system-fonts` leaves text no given font has out. Real SDK client over stdio.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemFontsFor } from '../packages/agent/src/cli/system-fonts.js';
import { buildCliForTests } from './support/build-cli.js';

const CJK_FONT = '/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf'; // scripts/install-test-tools.sh
const LABELS =
  '<svg xmlns="http://www.w3.org/2000/svg" width="240" height="80"><rect width="240" height="80" fill="#fff"/>' +
  '<text x="10" y="55" font-size="40" fill="#000">你好世界</text></svg>';

let bundle: string;
let root: string;
const clients: Client[] = [];

beforeAll(async () => {
  bundle = await buildCliForTests('glimpse-mcp-fonts-test');
  root = await mkdtemp(join(tmpdir(), 'glimpse-mcp-fonts-'));
  await writeFile(join(root, 'labels.svg'), LABELS);
});

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await rm(root, { recursive: true, force: true });
});

/** Views labels.svg on a server started with `flags`; returns the dark pixels of the image and the text. */
async function viewLabels(flags: string[]): Promise<{ ink: number; text: string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bundle, 'mcp', '--root', root, '--preset', 'anthropic', ...flags],
    stderr: 'pipe',
  });
  const client = new Client({ name: 'glimpse-fonts-test', version: '0.0.0' });
  clients.push(client);
  await client.connect(transport);
  const result = await client.callTool({ name: 'view_file', arguments: { path: 'labels.svg' } });
  const content = Array.isArray(result.content) ? result.content : [];
  const image = content.find((c) => c.type === 'image');
  if (image?.type !== 'image') throw new Error(`expected an image, got ${JSON.stringify(content)}`);
  const { data } = await sharp(Buffer.from(image.data, 'base64'))
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const text = content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
  return { ink: data.filter((value) => value < 128).length, text };
}

describe('glimpse mcp: fonts for SVG text in the view workers', () => {
  it('--no-system-fonts: CJK labels are left out, and the text says so', async () => {
    const { ink, text } = await viewLabels(['--no-system-fonts']);
    expect(ink).toBe(0);
    expect(text).toMatch(/Han \(Chinese characters\)/);
  });

  it('--font FILE draws them (given twice, as a list)', async () => {
    const { ink, text } = await viewLabels(['--no-system-fonts', '--font', CJK_FONT, '--font', CJK_FONT]);
    expect(ink).toBeGreaterThan(800);
    expect(text).not.toMatch(/could not be drawn/);
  });

  it("by default, a system font that has the characters draws them (fontconfig's fc-list)", async () => {
    const { ink } = await viewLabels([]);
    expect(ink).toBeGreaterThan(800);
  });

  it('refuses a --font that is not a font file, as a usage error', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [bundle, 'mcp', '--root', root, '--font', join(root, 'labels.svg')],
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const client = new Client({ name: 'glimpse-fonts-test', version: '0.0.0' });
    await expect(client.connect(transport)).rejects.toThrow();
    expect(stderr).toContain('is not a TTF, OTF or TTC font file');
  });
});

describe('systemFontsFor', () => {
  it('finds one font per script fontconfig knows, each file read once, none for "other"', async () => {
    const han = await systemFontsFor(['Han (Chinese characters)']);
    expect(han).toHaveLength(1);
    const both = await systemFontsFor(['Han (Chinese characters)', 'Hangul']);
    expect(both.length).toBeGreaterThanOrEqual(1);
    expect(both.length).toBeLessThanOrEqual(2); // one face with both (DroidSansFallbackFull) is given once
    expect(both).toContain(han[0]); // the same bytes: read once per process
    expect(await systemFontsFor(['other'])).toEqual([]);
  });
});
