// A session round-trips through PostgresSessionStore on PGlite's IndexedDB store in headless Chromium: run 0
// appended on one page load, run 1 on the next (which resumes it from IndexedDB), then read back on a third,
// equal to what was written, with each unique medium once in glimpse_media as its bytes.
import { deepStrictEqual, strictEqual } from 'node:assert';
import { createHash } from 'node:crypto';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { serveStatic } from '../../../scripts/static-server.js';
import { launchChromium } from '../launch-chromium.js';
import { SESSION_RUNS, UNIQUE_MEDIA } from './session-case.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
await build({
  entryPoints: [resolve(root, 'test/runtimes/sessions/browser-session.ts')],
  outfile: resolve(root, 'node_modules/.cache/glimpse/browser/browser-session.js'),
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  external: ['@electric-sql/pglite'],
  logLevel: 'warning',
});

const server = await serveStatic(root);
const browser = await launchChromium();
let failed = 1;
try {
  const page = await browser.newPage();
  page.on('pageerror', (error) => console.error(`page error: ${error.message}`));
  const step = async (name: string) => {
    await page.goto(`${server.url}test/runtimes/sessions/index.html?step=${name}`);
    await page.waitForSelector('#results[data-done="true"]', { timeout: 120_000 });
    const value = JSON.parse((await page.textContent('#results')) ?? '{}');
    if ('error' in value) throw new Error(`step ${name}: ${value.error}\n${value.stack}`);
    return value;
  };
  deepStrictEqual(await step('0'), { resumed: 0 });
  deepStrictEqual(await step('1'), { resumed: SESSION_RUNS[0]!.length });
  const read = await step('read');
  deepStrictEqual(read.messages, SESSION_RUNS.flat());
  strictEqual(read.header.app.name, 'browser suite');
  const expected = UNIQUE_MEDIA.map((data) => Buffer.from(data, 'base64'))
    .map((bytes) => ({ sha256: createHash('sha256').update(bytes).digest('hex'), length: bytes.length }))
    .sort((a, b) => a.length - b.length);
  deepStrictEqual(read.media, expected);
  console.log('browser session store (PGlite on IndexedDB, Chromium): 1 passed, 0 failed');
  failed = 0;
} catch (error) {
  console.log(`browser session store: FAIL ${error instanceof Error ? error.message : String(error)}`);
  console.log('browser session store (PGlite on IndexedDB, Chromium): 0 passed, 1 failed');
} finally {
  await browser.close();
  await server.close();
}
globalThis.process.exit(failed === 0 ? 0 : 1);
