// The fuzzer itself: the same seed gives the same inputs, structure-aware edits keep PNG checksums valid
// (so inputs reach the decoder), and the child runner reports hangs, crashes and untyped errors.
import { afterAll, describe, expect, it } from 'vitest';
import { crc32 } from 'node:zlib';
import { ChildRunner } from '../../scripts/fuzz/child-runner.js';
import { fuzzInput } from '../../scripts/fuzz/inputs.js';
import { inputSeed, prng } from '../../scripts/fuzz/mutate.js';
import { FUZZ_FORMATS, seedsFor } from '../../scripts/fuzz/seeds.js';

function pngCrcsValid(bytes: Uint8Array): boolean {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let offset = 8; offset + 12 <= bytes.length; ) {
    const length = view.getUint32(offset);
    if (offset + 12 + length > bytes.length) return false;
    if (view.getUint32(offset + 8 + length) !== crc32(bytes.subarray(offset + 4, offset + 8 + length))) return false;
    offset += 12 + length;
  }
  return true;
}

describe('fuzzer', () => {
  // Generous: the first call of each codec loads it, which takes seconds on a busy machine.
  const runner = new ChildRunner(60_000);
  afterAll(() => runner.close());

  it('makes the same inputs from the same seed, and different ones from another', async () => {
    for (const format of FUZZ_FORMATS) {
      const seeds = await seedsFor(format);
      const again = await seedsFor(format);
      expect(again).toEqual(seeds);
      const first = fuzzInput(format, seeds, prng(inputSeed(1, format, 42)));
      expect(fuzzInput(format, seeds, prng(inputSeed(1, format, 42)))).toEqual(first);
      expect(fuzzInput(format, seeds, prng(inputSeed(2, format, 42))).bytes).not.toEqual(first.bytes);
    }
  });

  it('keeps most PNG chunk CRCs valid, so inputs get past the checksum', async () => {
    const seeds = await seedsFor('png');
    let valid = 0;
    for (let index = 0; index < 200; index++)
      if (pngCrcsValid(fuzzInput('png', seeds, prng(inputSeed(1, 'png', index))).bytes)) valid++;
    expect(valid).toBeGreaterThan(100);
  });

  it('passes every seed through process with no finding', async () => {
    for (const format of FUZZ_FORMATS) {
      for (const bytes of await seedsFor(format)) {
        const verdict = await runner.run({ bytes, options: {} });
        expect(
          verdict.outcome === 'finding' ? `${verdict.finding}: ${verdict.detail}` : verdict.outcome,
          format,
        ).toMatch(/^(output|refused)$/);
      }
    }
  });

  it('reports an untyped error, a hang and a crash as findings and keeps going', async () => {
    const runner = new ChildRunner(2_000);
    expect(await runner.run({ selfTest: 'throw' })).toMatchObject({
      outcome: 'finding',
      finding: 'untyped-error',
      detail: expect.stringMatching(/TypeError: self-test/),
    });
    expect(await runner.run({ selfTest: 'hang' })).toMatchObject({ outcome: 'finding', finding: 'hang' });
    expect(await runner.run({ selfTest: 'exit' })).toMatchObject({
      outcome: 'finding',
      finding: 'crash',
      detail: expect.stringMatching(/exited \(70\)/),
    });
    const [seed] = await seedsFor('png');
    expect(await runner.run({ bytes: seed as Uint8Array, options: {} })).toMatchObject({
      outcome: 'output',
      mediaType: 'image/png',
    });
    expect(runner.starts).toBe(3); // the first child, then one after the hang and one after the crash
    runner.close();
  });
});
