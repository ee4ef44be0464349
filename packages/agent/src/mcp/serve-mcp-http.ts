import { createServer } from 'node:http';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

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
      response.writeHead(405, { allow: 'POST', 'content-type': 'text/plain' }).end('Method not allowed: POST JSON-RPC to /mcp\n');
      return;
    }
    const server = makeServer();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true, enableDnsRebindingProtection: true, allowedHosts });
    response.on('close', () => {
      void transport.close();
      void server.close();
    });
    server
      .connect(transport)
      .then(() => transport.handleRequest(request, response))
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
