// createGlimpseMcpServer viewing on its own thread (no worker pool): its `fonts` and `fallbackFonts` reach view_file.
import { readFile } from 'node:fs/promises';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { MemoryFileSystem } from '../fs/memory-file-system.js';
import { createGlimpseMcpServer, type GlimpseMcpServerOptions } from './glimpse-mcp-server.js';

const CJK_FONT = '/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf'; // scripts/install-test-tools.sh
const LABELS =
  '<svg xmlns="http://www.w3.org/2000/svg" width="240" height="80"><rect width="240" height="80" fill="#fff"/>' +
  '<text x="10" y="55" font-size="40" fill="#000">你好世界</text></svg>';

async function inkOnServer(options: Omit<GlimpseMcpServerOptions, 'fileSystem' | 'root'>): Promise<number> {
  const fileSystem = new MemoryFileSystem({ files: { '/w/labels.svg': new TextEncoder().encode(LABELS) } });
  const server = createGlimpseMcpServer({ ...options, fileSystem, root: '/w', preset: 'anthropic' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'fonts-test', version: '0.0.0' });
  await client.connect(clientSide);
  const result = await client.callTool({ name: 'view_file', arguments: { path: 'labels.svg' } });
  await client.close();
  const content = Array.isArray(result.content) ? result.content : [];
  const image = content.find((c) => c.type === 'image');
  if (image?.type !== 'image') throw new Error(`expected an image, got ${JSON.stringify(content)}`);
  const { data } = await sharp(Buffer.from(image.data, 'base64'))
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return data.filter((value) => value < 128).length;
}

describe('createGlimpseMcpServer fonts, on the calling thread', () => {
  it('draws CJK labels with fonts or fallbackFonts, and leaves them out without', async () => {
    const cjk = new Uint8Array(await readFile(CJK_FONT));
    expect(await inkOnServer({})).toBe(0);
    expect(await inkOnServer({ fonts: [cjk] })).toBeGreaterThan(800);
    expect(await inkOnServer({ fallbackFonts: async () => [cjk] })).toBeGreaterThan(800);
  });
});
