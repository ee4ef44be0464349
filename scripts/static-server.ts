// A static file server on 127.0.0.1 for the browser suite and the playground: GET and HEAD only, no directory
// listings, never outside its root. Serves .wasm as application/wasm so compileStreaming works.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, resolve, sep } from 'node:path';

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.gif': 'image/gif',
  '.svg': 'image/svg+xml',
  '.pdf': 'application/pdf',
};

export interface StaticServer {
  /** Base URL, ending in `/`. */
  url: string;
  close(): Promise<void>;
}

/** Serves `root` on 127.0.0.1; port 0 picks a free one. `/` answers with `index`, when given. */
export async function serveStatic(
  root: string,
  { port = 0, index }: { port?: number; index?: string } = {},
): Promise<StaticServer> {
  const base = resolve(root);
  const server = createServer(async (request, response) => {
    const pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://127.0.0.1').pathname);
    const target = resolve(base, `.${pathname === '/' && index ? `/${index}` : pathname}`);
    const readable = request.method === 'GET' || request.method === 'HEAD';
    const fileInfo =
      readable && (target === base || target.startsWith(base + sep))
        ? await stat(target).catch(() => undefined)
        : undefined;
    if (!fileInfo?.isFile()) {
      response
        .writeHead(readable ? 404 : 405, { 'content-type': 'text/plain' })
        .end(readable ? 'not found\n' : 'GET or HEAD only\n');
      return;
    }
    response.writeHead(200, {
      'content-type': CONTENT_TYPES[extname(target)] ?? 'application/octet-stream',
      'content-length': fileInfo.size,
      'cache-control': 'no-store',
    });
    if (request.method === 'HEAD') response.end();
    else createReadStream(target).pipe(response);
  });
  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolveListen);
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the static server is not listening on TCP');
  return {
    url: `http://127.0.0.1:${address.port}/`,
    close: () => new Promise((resolveClose) => server.close(() => resolveClose())),
  };
}
