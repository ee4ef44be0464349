// A PDF encrypted with an empty user password (issue 29 item 8): media refuses to send it (providers refuse
// encrypted files) but says it opens without one, so view_file reads it itself: text and page images, with a
// note. One that needs a password keeps the typed error. Files encrypted by qpdf in the test.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { qpdfEncrypted } from '../../../../test/support/qpdf-encrypt.js';
import { assertStrictlyValid } from '../../../../test/support/strict-oracle.js';
import { lineOfText, textPdf } from '../../../../test/fixtures/pdf-documents.js';
import { prepareConversation } from '../cli/prepare.js';
import { MemoryFileSystem } from '../fs/memory-file-system.js';
import { createGlimpseMcpServer } from '../mcp/glimpse-mcp-server.js';
import type { CapabilitiesQuery } from '../route/capabilities.js';
import type { Part, ToolResult } from '../types.js';
import { viewFile } from './view-file.js';

const CLAUDE: CapabilitiesQuery = { provider: 'anthropic', model: 'claude-sonnet-4-5' };
const textOf = (result: ToolResult) => result.parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n');
const images = (result: ToolResult) =>
  result.parts.filter((p): p is Extract<Part, { type: 'image' }> => p.type === 'image');

let fileSystem: MemoryFileSystem;
let dir = '';

beforeAll(async () => {
  const plain = await textPdf({ pages: 2, lines: 3 });
  dir = await mkdtemp(join(tmpdir(), 'glimpse-encrypted-'));
  await writeFile(join(dir, 'open.pdf'), qpdfEncrypted(plain, ''));
  fileSystem = new MemoryFileSystem({
    cwd: '/desk',
    files: {
      '/desk/open.pdf': qpdfEncrypted(plain, ''),
      '/desk/locked.pdf': qpdfEncrypted(plain, 'secret'),
    },
  });
});

afterAll(() => rm(dir, { recursive: true, force: true }));

describe('view_file on an encrypted PDF', () => {
  it('sends one that opens without a password as text and page images, with a note', async () => {
    for (const pages of [undefined, '2']) {
      const result = await viewFile(
        { path: 'open.pdf', ...(pages !== undefined && { pages }) },
        { fileSystem, route: CLAUDE },
      );
      expect(result.isError).toBe(false);
      const text = textOf(result);
      expect(text).toMatch(/open\.pdf is encrypted with an empty password .* so it is sent as text and page images/);
      expect(text).not.toMatch(/E_PDF_ENCRYPTED/);
      expect(text).toContain(lineOfText(1, 0));
      if (pages === undefined) expect(text).toContain(lineOfText(0, 2));
      else expect(text).not.toContain(lineOfText(0, 0));
      const shown = images(result);
      expect(shown.length).toBe(pages === undefined ? 2 : 1);
      for (const image of shown) assertStrictlyValid(Buffer.from(image.data, 'base64'), image.mediaType, 'page image');
      expect(result.parts.some((part) => part.type === 'document')).toBe(false);
    }
  });

  it('keeps E_PDF_ENCRYPTED for one that needs a password', async () => {
    const result = await viewFile({ path: 'locked.pdf' }, { fileSystem, route: CLAUDE });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/E_PDF_ENCRYPTED/);
    expect(textOf(result)).toMatch(/Ask the user for a copy without the password/);
    expect(images(result)).toEqual([]);
  });

  it('glimpse prepare (through view_file) sends it the same way', async () => {
    const messages = await prepareConversation([join(dir, 'open.pdf')], 'anthropic', undefined);
    const result = messages.at(-1);
    if (result?.role !== 'toolResult') throw new Error('expected the tool result');
    expect(result.isError).toBe(false);
    expect(textOf(result)).toMatch(/encrypted with an empty password/);
    expect(textOf(result)).toContain(lineOfText(0, 0));
    for (const image of images(result)) assertStrictlyValid(Buffer.from(image.data, 'base64'), image.mediaType);
    expect(images(result).length).toBe(2);
  });

  it('the MCP server (through view_file) sends it the same way', async () => {
    const server = createGlimpseMcpServer({ fileSystem, root: '/desk', preset: 'anthropic' });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'encrypted-pdf-test', version: '0.0.0' });
    await client.connect(clientSide);
    const result = await client.callTool({ name: 'view_file', arguments: { path: 'open.pdf' } });
    await client.close();
    const content = (Array.isArray(result.content) ? result.content : []) as Array<Record<string, string>>;
    expect(result.isError).not.toBe(true);
    const text = content.flatMap((c) => (c.type === 'text' ? [c.text] : [])).join('\n');
    expect(text).toMatch(/encrypted with an empty password/);
    expect(text).toContain(lineOfText(1, 0));
    const pageImages = content.filter((c) => c.type === 'image');
    expect(pageImages.length).toBe(2);
    for (const image of pageImages) assertStrictlyValid(Buffer.from(image.data!, 'base64'), image.mimeType);
  });
});
