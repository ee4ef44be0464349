// `npm run test:playground`: builds and serves the playground on 127.0.0.1, loads it in headless
// Chromium, sets a file (a vector input that gets downscaled), checks that both previews and every
// provider's JSON appear, and saves a screenshot to test/artifacts/playground.png.
import { mkdir } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildPlayground } from '../../../scripts/build-playground.mjs';
import { serveStatic } from '../../../scripts/static-server.js';
import { launchChromium } from '../launch-chromium.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const input = resolve(root, 'test/vectors/inputs/screenshot.png');
const screenshot = resolve(root, 'test/artifacts/playground.png');

const checks: { name: string; passed: boolean; detail: string }[] = [];
function check(name: string, passed: boolean, detail: string): void {
  checks.push({ name, passed, detail });
  console.log(`${passed ? 'ok  ' : 'FAIL'} playground ${name}: ${detail}`);
}

const server = await serveStatic(await buildPlayground(), { index: 'index.html' });
const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: 1200, height: 1300 } });
  page.on('pageerror', (error) => check('no page errors', false, error.message));
  await page.goto(server.url);
  await page.waitForSelector('body[data-state="ready"]');
  await page.selectOption('#preset', 'anthropic');
  await page.setInputFiles('#file', input);
  await page.waitForSelector('body[data-state="processed"], body[data-state="failed"]', { timeout: 120_000 });
  check(
    'processing finished',
    (await page.getAttribute('body', 'data-state')) === 'processed',
    (await page.textContent('#status')) ?? '',
  );

  const facts = (await page.textContent('#facts')) ?? '';
  check('detected type shown', facts.includes('Detected typeimage/png'), facts.slice(0, 160));
  check('processed to the preset', facts.includes('image/png, 1389×868'), facts.slice(0, 240));
  for (const id of ['original', 'processed']) {
    const size = await page.$eval(`#${id} img`, (image) =>
      image instanceof HTMLImageElement && image.complete ? [image.naturalWidth, image.naturalHeight] : [0, 0],
    );
    const [width = 0, height = 0] = size;
    check(`${id} preview decoded by the browser`, width > 0 && height > 0, `${width}×${height}`);
  }
  const tabs = await page.$$eval('#tabs button[data-provider]', (buttons) =>
    buttons.map((button) => button.textContent ?? ''),
  );
  check('one tab per provider', tabs.length === 6, tabs.join(', '));
  const tokens = (await page.textContent('#tokens')) ?? '';
  check('token estimates shown', /anthropic≈ \d+ tokens/.test(tokens), tokens.slice(0, 120));

  const anthropicJson = JSON.parse((await page.textContent('#payload')) ?? '{}');
  check(
    'anthropic JSON is a base64 image block',
    JSON.stringify(anthropicJson).includes('"type":"image"') &&
      JSON.stringify(anthropicJson).includes('"media_type":"image/png"'),
    JSON.stringify(anthropicJson).slice(0, 160),
  );
  await page.click('#tabs button[data-provider="gemini"]');
  const geminiJson = (await page.textContent('#payload')) ?? '';
  check(
    'gemini tab shows inlineData',
    geminiJson.includes('inlineData') || geminiJson.includes('inline_data'),
    geminiJson.slice(0, 120).replace(/\s+/g, ' '),
  );
  await page.click('#tabs button[data-provider="anthropic"]');

  await mkdir(dirname(screenshot), { recursive: true });
  await page.screenshot({ path: screenshot, fullPage: true });
  check('screenshot saved', true, screenshot);
} finally {
  await browser.close();
  await server.close();
}
const failed = checks.filter((item) => !item.passed).length;
console.log(`${checks.length - failed} passed, ${failed} failed`);
globalThis.process.exit(failed === 0 ? 0 : 1);
