// Node side of `npm run test:browser`: bundles the in-page runner, serves the repository on 127.0.0.1,
// and lets headless Chromium run the vectors through packages/media/dist/browser.js.
import { build } from 'esbuild';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveStatic } from '../../../scripts/static-server.js';
import { launchChromium } from '../launch-chromium.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

await build({
  entryPoints: [resolve(root, 'test/runtimes/browser/browser-vectors.ts')],
  outfile: resolve(root, 'node_modules/.cache/glimpse/browser/browser-vectors.js'),
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  // The packages are loaded as published, not rebundled: their .wasm files sit beside dist/browser.js.
  // The heif bundle imports @glimpse/media by name, which index.html's import map resolves to the same file.
  plugins: [
    {
      name: 'packages-as-published',
      setup: (b) =>
        b.onResolve({ filter: /^@glimpse\/(media|heif)$/ }, (args) => ({
          path: `/packages/${args.path.slice('@glimpse/'.length)}/dist/browser.js`,
          external: true,
        })),
    },
  ],
  logLevel: 'warning',
});

const server = await serveStatic(root);
const browser = await launchChromium();
let failed = 1;
try {
  const page = await browser.newPage();
  page.on('pageerror', (error) => console.error(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') console.error(`page console: ${message.text()}`);
  });
  await page.goto(`${server.url}test/runtimes/browser/index.html`);
  await page.waitForSelector('#results[data-done="true"]', { timeout: 300_000 });
  const text = (await page.textContent('#results')) ?? '';
  console.log(text);
  const summary = /^(\d+) passed, (\d+) failed$/m.exec(text);
  failed = summary && Number(summary[1]) > 0 ? Number(summary[2]) : 1;
} finally {
  await browser.close();
  await server.close();
}
globalThis.process.exit(failed === 0 ? 0 : 1);
