import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Part, Tool } from '../types.js';
import { wrapMcpTools } from './wrap-mcp-tools.js';

let client: Client;
let tools: Tool[];

/** A small third-party-style MCP server whose tools return raw, oversized media. */
async function startRemoteServer(): Promise<Client> {
  const huge = (
    await sharp({ create: { width: 4000, height: 2500, channels: 3, background: '#c33' } })
      .png()
      .toBuffer()
  ).toString('base64');
  const pdf = await PDFDocument.create();
  pdf.addPage([200, 200]);
  const pdfBase64 = Buffer.from(await pdf.save()).toString('base64');
  const results: Record<string, CallToolResult> = {
    screenshot: {
      content: [
        { type: 'text', text: 'here it is' },
        { type: 'image', data: huge, mimeType: 'image/png' },
      ],
    },
    mixed: {
      content: [
        { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
        { type: 'resource', resource: { uri: 'mem://docs/spec.pdf', mimeType: 'application/pdf', blob: pdfBase64 } },
        {
          type: 'resource',
          resource: {
            uri: 'mem://docs/bad.png',
            mimeType: 'image/png',
            blob: Buffer.from('not a png').toString('base64'),
          },
        },
      ],
    },
    broken: { content: [{ type: 'text', text: 'remote failure' }], isError: true },
  };
  const server = new Server({ name: 'remote', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: Object.keys(results).map((name) => ({
      name,
      description: `remote ${name}`,
      inputSchema: { type: 'object' as const, properties: {} },
    })),
  }));
  server.setRequestHandler(
    CallToolRequestSchema,
    (request) => results[request.params.name] ?? { content: [], isError: true },
  );
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const remote = new Client({ name: 'glimpse', version: '0.0.0' });
  await remote.connect(clientSide);
  return remote;
}

const byName = (name: string) => tools.find((tool) => tool.definition.name === name)!;
const textOf = (parts: Part[]) => parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n');

beforeAll(async () => {
  client = await startRemoteServer();
  tools = await wrapMcpTools(client, { provider: 'anthropic', model: 'claude-sonnet-4-5', prefix: 'remote_' });
});
afterAll(() => client.close());

describe('wrapMcpTools', () => {
  it('exposes the remote tools with their schemas', () => {
    expect(tools.map((t) => t.definition)).toEqual([
      { name: 'remote_screenshot', description: 'remote screenshot', parameters: { type: 'object', properties: {} } },
      { name: 'remote_mixed', description: 'remote mixed', parameters: { type: 'object', properties: {} } },
      { name: 'remote_broken', description: 'remote broken', parameters: { type: 'object', properties: {} } },
    ]);
  });

  it('fits an oversized remote image through the pipeline', async () => {
    const result = await byName('remote_screenshot').execute({});
    expect(result.isError).toBe(false);
    const image = result.parts.find((p) => p.type === 'image');
    if (image?.type !== 'image') throw new Error('expected an image part');
    const meta = await sharp(Buffer.from(image.data, 'base64')).metadata();
    // Claude's working size: 1,568 patches of 28 px (1568×980 would be 1,960).
    expect([meta.width, meta.height]).toEqual([1389, 868]);
    expect(textOf(result.parts)).toContain('here it is');
    expect(textOf(result.parts)).toContain('resized from 4000x2500 to 1389x868');
  });

  it('turns a PDF resource into a document part, and audio and broken media into notes', async () => {
    const result = await byName('remote_mixed').execute({});
    const document = result.parts.find((p) => p.type === 'document');
    expect(document).toMatchObject({ type: 'document', mediaType: 'application/pdf', filename: 'spec.pdf' });
    expect(result.parts.filter((p) => p.type === 'image')).toHaveLength(0);
    const notes = textOf(result.parts);
    expect(notes).toContain('audio/wav');
    expect(notes).toContain('could not attach bad.png');
  });

  it('keeps a remote error an error', async () => {
    const result = await byName('remote_broken').execute({});
    expect(result).toEqual({ parts: [{ type: 'text', text: 'remote failure' }], isError: true });
  });
});
