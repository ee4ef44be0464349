import { createServer, type IncomingMessage } from 'node:http';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { checkJsonRpc } from './check-json-rpc.js';

/** Largest request body read (the SDK's own limit for a JSON-RPC POST). */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** The body as text, or undefined when it is larger than the limit. */
async function readBody(request: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buffer.length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export interface McpHttpEndpoint {
  /** `http://127.0.0.1:PORT/mcp` */
  url: string;
  close(): Promise<void>;
}

/**
 * Serves MCP over Streamable HTTP on 127.0.0.1 only (never another interface: the tools read local files),
 * stateless: each POST to /mcp gets a fresh server from `makeServer` and a JSON response. Host headers other
 * than 127.0.0.1/localhost are refused, so a web page cannot reach it through DNS rebinding.
 */
export async function serveMcpOverHttp(makeServer: () => Server, { port }: { port: number }): Promise<McpHttpEndpoint> {
  let allowedHosts: string[] = [];
  const http = createServer((request, response) => {
    if (new URL(request.url ?? '/', 'http://127.0.0.1').pathname !== '/mcp') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found: the MCP endpoint is /mcp\n');
      return;
    }
    if (request.method !== 'POST') {
      // Stateless: no server-initiated streams (GET) and no sessions to end (DELETE).
      response
        .writeHead(405, { allow: 'POST', 'content-type': 'text/plain' })
        .end('Method not allowed: POST JSON-RPC to /mcp\n');
      return;
    }
    if (!allowedHosts.includes(request.headers.host ?? '')) {
      // DNS rebinding: refused before the body is read (the transport checks again).
      response.writeHead(403, { 'content-type': 'text/plain' }).end('Forbidden: invalid Host header\n');
      return;
    }
    const server = makeServer();
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
      enableDnsRebindingProtection: true,
      allowedHosts,
    });
    response.on('close', () => {
      void transport.close();
      void server.close();
    });
    // Checked here, as over stdio: the SDK answers valid JSON that is no JSON-RPC message with -32700, and bad
    // params with -32603 and a multi-line dump.
    const json = (status: number, body: unknown) =>
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    readBody(request)
      .then(async (text) => {
        if (text === undefined)
          return json(413, {
            jsonrpc: '2.0',
            id: null,
            error: { code: -32600, message: `Invalid Request: the body is over ${MAX_BODY_BYTES} bytes.` },
          });
        const checked = checkJsonRpc(text);
        if ('reply' in checked) return json(400, checked.reply);
        await server.connect(transport);
        await transport.handleRequest(request, response, checked.message);
      })
      .catch((error: unknown) => {
        process.stderr.write(`glimpse mcp: ${error instanceof Error ? error.message : String(error)}\n`);
        if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain' }).end('Internal error\n');
      });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(port, '127.0.0.1', () => resolve());
  });
  const address = http.address();
  const bound = typeof address === 'object' && address !== null ? address.port : port;
  allowedHosts = [`127.0.0.1:${bound}`, `localhost:${bound}`];
  return {
    url: `http://127.0.0.1:${bound}/mcp`,
    close: () => new Promise<void>((resolve) => http.close(() => resolve())),
  };
}
