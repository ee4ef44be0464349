// In-page half of `npm run test:browser`: runs the shared vectors through the published browser bundles
// (packages/media/dist/browser.js and packages/heif/dist/browser.js, loaded as-is) and writes the report
// into #results.
import '@glimpse/heif'; // registers the HEIC decoder with the same @glimpse/media
import * as media from '@glimpse/media';
import { checkVector, observe, report, type VectorOutcome } from '../run-vectors.js';
import type { VectorManifest } from '../vector-manifest.js';

async function fetchBytes(url: string): Promise<Uint8Array> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`GET ${url} answered ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

async function runAll(): Promise<string> {
  const manifest: VectorManifest = await (await fetch('/test/vectors/manifest.json')).json();
  const outcomes: VectorOutcome[] = [];
  for (const vector of manifest.vectors) {
    const input = await fetchBytes(`/test/vectors/inputs/${vector.input}`);
    outcomes.push(await checkVector(vector, () => observe(media, input, vector)));
  }
  return report('browser', outcomes).text;
}

const results = document.getElementById('results');
if (results) {
  runAll()
    .then((text) => (results.textContent = text))
    .catch((error: unknown) => (results.textContent = `0 passed, 1 failed\nsuite crashed: ${String(error)}`))
    .finally(() => (results.dataset.done = 'true'));
}
