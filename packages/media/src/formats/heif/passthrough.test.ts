// Gemini takes image/heic and image/heif, so its preset passes a sound HEIC/HEIF within its limits through
// untouched, with no decoder installed; anything over the limits, damaged, or for another preset needs
// converting, which takes @glimpse/heif (not registered in this test file's module graph).
import { beforeAll, describe, expect, it } from 'vitest';
import { codedImageOf, heifEnc, writeHeif } from '../../../../../test/fixtures/heif-writer.js';
import { rebranded, withBoxSize } from '../../../../../test/fixtures/isobmff-surgery.js';
import { concatBytes, naturalPixels } from '../../../../../test/fixtures/pixels.js';
import { MediaError } from '../../errors.js';
import { PRESETS } from '../../presets/presets.js';
import { process } from '../../process.js';
import { failsWith } from '../../../../../test/support/typed-errors.js';

let heic: Uint8Array;

beforeAll(async () => {
  heic = await heifEnc(naturalPixels(64, 48), { quality: 60 });
}, 60_000);

describe('the gemini preset and HEIC/HEIF', () => {
  it('takes image/heic and image/heif as they are; no other preset does', () => {
    const taking = (type: string) =>
      Object.entries(PRESETS)
        .filter(([, preset]) => preset.accepts.some((accepted) => accepted === type))
        .map(([name]) => name);
    expect(taking('image/heic')).toEqual(['gemini']);
    expect(taking('image/heif')).toEqual(['gemini']);
  });

  it('passes a HEIC within its limits through untouched, without a decoder', async () => {
    const result = await process(heic, { preset: 'gemini' });
    expect(result).toMatchObject({ mediaType: 'image/heic', width: 64, height: 48, reencoded: false, steps: [] });
    expect(result.data).toBe(heic);
  });

  it('passes a HEIF (mif1 brand) through as image/heif', async () => {
    const heif = rebranded(heic, 'heic', 'mif1');
    const result = await process(heif, { preset: 'gemini' });
    expect(result).toMatchObject({ mediaType: 'image/heif', reencoded: false });
    expect(result.data).toBe(heif);
  });

  it('converts one over its limits, which without @glimpse/heif is a refusal saying why', async () => {
    const error = await failsWith(process(heic, { preset: 'gemini', maxEdge: 32 }), MediaError);
    expect(error.code).toBe('E_UNSUPPORTED');
    expect(error.message).toContain(
      "The gemini preset takes HEIC as it is, within its limits (preset: 'gemini'). This file cannot go as it is: it is over them (64×48 px, over 32 px).",
    );
    expect(error.message).toContain('install @glimpse/heif (npm install @glimpse/heif)');
    expect(error.message).toContain("in code, import it once (import '@glimpse/heif')");
    const tooBig = await failsWith(process(heic, { preset: 'gemini', maxBytes: 100 }), MediaError);
    expect(tooBig.message).toContain(`it is over them (${heic.length} bytes, over 100)`);
    // A quarter turn (irot): the size as the photo is shown, not as stored.
    const turned = writeHeif({ tiles: [codedImageOf(await heifEnc(naturalPixels(96, 64)))], rotate: 1 });
    const turnedError = await failsWith(process(turned, { preset: 'gemini', maxEdge: 32 }), MediaError);
    expect(turnedError.message).toContain('it is over them (64×96 px, over 32 px)');
  });

  it('never passes a damaged one through: cut short is E_CORRUPT, stray bytes need a re-encode', async () => {
    const cut = withBoxSize(heic, 'mdat', 0).subarray(0, heic.length - 100);
    const corrupt = await failsWith(process(cut, { preset: 'gemini' }), MediaError);
    expect(corrupt.code).toBe('E_CORRUPT');
    expect(corrupt.message).toMatch(/^The HEIC file is damaged: the data of item \d+ lies outside the file/);
    const padded = concatBytes([heic, new Uint8Array([0, 0, 0])]);
    const repair = await failsWith(process(padded, { preset: 'gemini' }), MediaError);
    expect(repair.code).toBe('E_UNSUPPORTED');
    expect(repair.message).toContain(
      'This file cannot go as it is: it must be re-encoded first (3 stray bytes follow the last box).',
    );
  });

  it('other presets convert it: without @glimpse/heif they refuse, naming the preset that takes it', async () => {
    for (const preset of ['portable', 'anthropic', 'openai', 'bedrock', 'ollama'] as const) {
      const error = await failsWith(process(heic, { preset }), MediaError);
      expect(error.code, preset).toBe('E_UNSUPPORTED');
      expect(error.message, preset).toBe(
        "This is a HEIC image (image/heic). The gemini preset takes HEIC as it is, within its limits (preset: 'gemini'). To convert it, install @glimpse/heif (npm install @glimpse/heif), which adds the HEVC decoder (libheif + libde265, LGPL-3.0): the glimpse CLI and MCP server load it when it is installed; in code, import it once (import '@glimpse/heif'). Or convert the file to JPEG first.",
      );
      expect(error.details).toMatchObject({ acceptedBy: ['gemini'] });
    }
  });
});
