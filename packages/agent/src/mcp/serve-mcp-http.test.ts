import { request } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryFileSystem } from '../fs/memory-file-system.js';
import { createGlimpseMcpServer } from './glimpse-mcp-server.js';
import { serveMcpOverHttp } from './serve-mcp-http.js';
import type { McpHttpEndpoint } from './serve-mcp-http.js';

let endpoint: McpHttpEndpoint;

/** A POST with a chosen Host header, as a DNS-rebinding page would send it. */
function postWithHost(url: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    const req = request(
      {
        hostname: target.hostname,
        port: target.port,
        path: target.pathname,
        method: 'POST',
        headers: { host, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

beforeAll(async () => {
  const photo = new Uint8Array(
    await sharp({ create: { width: 3000, height: 1000, channels: 3, background: '#08f' } })
      .png()
      .toBuffer(),
  );
  const fileSystem = new MemoryFileSystem({ files: { '/srv/wide.png': photo }, cwd: '/srv' });
  endpoint = await serveMcpOverHttp(() => createGlimpseMcpServer({ fileSystem, root: '/srv', preset: 'openai' }), {
    port: 0,
  });
});
afterAll(() => endpoint.close());

describe('glimpse mcp over Streamable HTTP', () => {
  it('listens on 127.0.0.1 and answers the SDK client', async () => {
    expect(endpoint.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const client = new Client({ name: 'http-test', version: '0.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(endpoint.url)));
    expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(['read', 'view_file']);
    const result = await client.callTool({ name: 'view_file', arguments: { path: 'wide.png' } });
    const content = 'content' in result && Array.isArray(result.content) ? result.content : [];
    const image = content.find((c) => c.type === 'image');
    if (image?.type !== 'image') throw new Error('expected image content');
    const meta = await sharp(Buffer.from(image.data, 'base64')).metadata();
    expect([meta.width, meta.height]).toEqual([2048, 683]);
    await client.close();
  });

  it('refuses a foreign Host header (DNS rebinding) and other methods', async () => {
    expect(await postWithHost(endpoint.url, 'evil.example:80')).toBe(403);
    const get = await fetch(endpoint.url);
    expect(get.status).toBe(405);
  });

  it('answers malformed JSON-RPC with its proper error, one line each', async () => {
    const post = async (body: string) => {
      const response = await fetch(endpoint.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body,
      });
      return {
        status: response.status,
        body: (await response.json()) as { id: unknown; error: { code: number; message: string } },
      };
    };
    expect(await post('{"jsonrpc":')).toMatchObject({ status: 400, body: { id: null, error: { code: -32700 } } });
    expect(await post('{"jsonrpc":"2.0","id":1,"params":{}}')).toMatchObject({
      status: 400,
      body: { id: 1, error: { code: -32600 } },
    });
    const bad = await post(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { arguments: {} } }));
    expect(bad).toMatchObject({
      status: 400,
      body: {
        id: 2,
        error: {
          code: -32602,
          message: expect.stringMatching(/^Invalid params for tools\/call: params\.name: [^\n]+$/),
        },
      },
    });
  });
});
