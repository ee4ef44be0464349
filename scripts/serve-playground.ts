// `npm run playground`: builds the playground and serves it on 127.0.0.1 (PORT, default 5173) until
// interrupted. A static server only: the page does all the work.
import { buildPlayground } from './build-playground.mjs';
import { serveStatic } from './static-server.js';

const port = Number(globalThis.process.env.PORT ?? 5173);
const server = await serveStatic(await buildPlayground(), { port, index: 'index.html' });
console.log(`glimpse playground: ${server.url}`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  globalThis.process.once(signal, () => void server.close().then(() => globalThis.process.exit(0)));
}
