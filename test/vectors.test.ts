// Node's run of the shared vectors (test/vectors/). Checks Node's output against manifest.json, which
// the Deno, browser and Workers suites reproduce byte for byte. `UPDATE_VECTORS=1` makes missing
// inputs and rewrites the manifest from Node's output, after checking each vector's stated facts.
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import '@glimpse/heif'; // HEIC vectors: the optional decoder, registered on import
import * as media from '@glimpse/media';
import { isPdfText, observe, sha256Hex } from './runtimes/run-vectors.js';
import { assertStrictlyValid } from './support/strict-oracle.js';
import type { Vector, VectorManifest } from './runtimes/vector-manifest.js';
import { factsNamedBy, VECTOR_DEFINITIONS, type VectorDefinition } from './vectors/definitions.js';

const vectorsDirectory = fileURLToPath(new URL('./vectors/', import.meta.url));
const manifestPath = `${vectorsDirectory}manifest.json`;
const updating = globalThis.process.env.UPDATE_VECTORS === '1';
const SHARP_FORMATS = {
  'image/png': 'png',
  'image/jpeg': 'jpeg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/heic': 'heif',
  'image/heif': 'heif',
} as const;

async function inputOf(definition: VectorDefinition): Promise<Uint8Array> {
  const path = `${vectorsDirectory}inputs/${definition.input}`;
  if (updating && !existsSync(path)) await writeFile(path, await definition.make());
  return new Uint8Array(await readFile(path));
}

/** Runs one definition in Node and checks the facts it states; returns its manifest entry. */
async function runDefinition(definition: VectorDefinition): Promise<Vector> {
  const input = await inputOf(definition);
  const observed = await observe(media, input, definition, async (result) => {
    if (isPdfText(result)) return;
    // The output really is what the result says: no strict reader refuses it (so the manifest never
    // records a corrupt file), and an independent decoder reads the stated format and size.
    assertStrictlyValid(result.data, result.mediaType, `output of vector ${definition.name}`);
    if (result.mediaType === 'application/pdf') return;
    const decoded = await sharp(result.data).metadata();
    expect({ format: decoded.format, width: decoded.width, height: decoded.height }).toEqual({
      format: SHARP_FORMATS[result.mediaType],
      width: result.width,
      height: result.height,
    });
  });
  expect(factsNamedBy(definition.holds, observed)).toEqual(definition.holds);
  // Both ways on every vector: an error only where one is stated, and the input's own bytes back exactly when
  // the vector says it passes through (a vector that is not marked must have been re-encoded or refused).
  expect({ failed: 'error' in observed }).toEqual({ failed: definition.holds.error !== undefined });
  const inputSha256 = await sha256Hex(input);
  const untouched = 'bytes' in observed && observed.bytes === input.byteLength && observed.sha256 === inputSha256;
  expect({ untouched }).toEqual({ untouched: definition.passthrough === true });
  const { name, input: file, options, operation } = definition;
  return { name, input: file, options, ...(operation ? { operation } : {}), expect: observed };
}

describe('shared test vectors (Node)', () => {
  if (updating) {
    // Each vector is its own test; the manifest keeps the old entry of a vector whose facts fail,
    // so a regression is never written down as the new expectation.
    const fresh = new Map<string, Vector>();
    for (const definition of VECTOR_DEFINITIONS) {
      it(`${definition.name}: Node output shows the stated facts`, async () => {
        fresh.set(definition.name, await runDefinition(definition));
      });
    }
    afterAll(async () => {
      const previous: VectorManifest = existsSync(manifestPath)
        ? JSON.parse(await readFile(manifestPath, 'utf8'))
        : { vectors: [] };
      const vectors = VECTOR_DEFINITIONS.flatMap((definition) => {
        const vector = fresh.get(definition.name) ?? previous.vectors.find((old) => old.name === definition.name);
        return vector ? [vector] : [];
      });
      const manifest: VectorManifest = { vectors };
      await writeFile(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
    });
    return;
  }

  it('the manifest lists every defined vector with the same input and options', async () => {
    const manifest: VectorManifest = JSON.parse(await readFile(manifestPath, 'utf8'));
    expect(
      manifest.vectors.map(({ name, input, options, operation }) => ({ name, input, options, operation })),
    ).toEqual(VECTOR_DEFINITIONS.map(({ name, input, options, operation }) => ({ name, input, options, operation })));
  });

  it('committed inputs stay small (under 1 MB in total)', async () => {
    const inputs = new Set(VECTOR_DEFINITIONS.map((definition) => definition.input));
    let total = 0;
    for (const input of inputs) total += (await readFile(`${vectorsDirectory}inputs/${input}`)).byteLength;
    expect(total).toBeLessThan(1_000_000);
  });

  for (const definition of VECTOR_DEFINITIONS) {
    it(`${definition.name}: Node reproduces the manifest`, async () => {
      const manifest: VectorManifest = JSON.parse(await readFile(manifestPath, 'utf8'));
      const expected = manifest.vectors.find((vector) => vector.name === definition.name);
      expect(expected, `${definition.name} is missing from manifest.json: run UPDATE_VECTORS=1`).toBeDefined();
      const vector = await runDefinition(definition);
      expect(vector.expect).toEqual(expected?.expect);
    });
  }
});
