import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { denseScreenshot } from '../../../../test/support/dense-screenshot.js';
import { assertStrictlyValid } from '../../../../test/support/strict-oracle.js';
import { MemoryFileSystem } from '../fs/memory-file-system.js';
import { createGlimpseMcpServer } from './glimpse-mcp-server.js';

// Claude Desktop refuses a tool result over 1 MiB of JSON ("result exceeds maximum length of 1048576").
const CLAUDE_DESKTOP = 1_048_576;
let fileSystem: MemoryFileSystem;

beforeAll(async () => {
  // A noisy 1500×1000 screen: ~4.5 MB as PNG, fitted by the portable preset to 3.75 MB, ~5 MB as base64.
  fileSystem = new MemoryFileSystem({
    files: { '/srv/screen.png': new Uint8Array(await denseScreenshot({ seed: 9, noise: 1 })) },
    cwd: '/srv',
  });
}, 30_000);

async function view(maxResultBytes?: number) {
  const server = createGlimpseMcpServer({
    fileSystem,
    root: '/srv',
    ...(maxResultBytes !== undefined && { maxResultBytes }),
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'host', version: '0.0.0' });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  const result = await client.callTool({ name: 'view_file', arguments: { path: 'screen.png' } });
  await client.close();
  return result;
}

describe('glimpse mcp --max-result-bytes', () => {
  it('keeps the result under the host’s cap by fitting the image smaller, still a whole valid image', async () => {
    const unbounded = await view();
    expect(JSON.stringify(unbounded).length).toBeGreaterThan(CLAUDE_DESKTOP);
    const result = await view(CLAUDE_DESKTOP);
    expect(Buffer.byteLength(JSON.stringify(result))).toBeLessThan(CLAUDE_DESKTOP);
    const content = Array.isArray(result.content) ? result.content : [];
    const image = content.find((item) => item.type === 'image');
    if (image?.type !== 'image') throw new Error('expected image content');
    const bytes = Buffer.from(image.data, 'base64');
    assertStrictlyValid(bytes, image.mimeType);
    const { width = 0 } = await sharp(bytes).metadata();
    expect(width).toBeGreaterThanOrEqual(1024);
    expect(result.isError).toBe(false);
  }, 120_000);

  it('turns an image no legible size lets in into a note that says how to see it', async () => {
    const result = await view(20_000);
    const content = Array.isArray(result.content) ? result.content : [];
    expect(content.some((item) => item.type === 'image')).toBe(false);
    expect(JSON.stringify(content)).toContain("would pass the host's bytes per result");
  }, 120_000);
});
