// `npm run test:deno`: runs the shared vectors in Deno through `@glimpse/media` and `@glimpse/heif`, which
// Deno resolves by the packages' `deno` export condition to their dist/deno.js (the published Deno bundles).
// Run by Deno itself (see test/runtimes/deno/run-deno-suite.ts), not by Node.
import '@glimpse/heif'; // registers the HEIC decoder with the same @glimpse/media
import * as media from '@glimpse/media';
import { checkVector, observe, report } from '../run-vectors.js';
import type { VectorManifest } from '../vector-manifest.js';

declare const Deno: {
  readFile(path: URL): Promise<Uint8Array>;
  readTextFile(path: URL): Promise<string>;
  exit(code: number): never;
};

const vectorsDirectory = new URL('../../vectors/', import.meta.url);
const manifest: VectorManifest = JSON.parse(await Deno.readTextFile(new URL('manifest.json', vectorsDirectory)));

const outcomes = [];
for (const vector of manifest.vectors) {
  const input = await Deno.readFile(new URL(`inputs/${vector.input}`, vectorsDirectory));
  outcomes.push(await checkVector(vector, () => observe(media, input, vector)));
}
const { text, failed } = report('deno', outcomes);
console.log(text);
Deno.exit(failed === 0 && outcomes.length > 0 ? 0 : 1);
