// The PNG strict read (png.wasm's `verify` through verifyPngIntegrity): the file pulled through read_input
// 64 KB at a time, and libpng's CRC pass left out only when the structural check has done it (`checked`).
import { describe, expect, it } from 'vitest';
import { process as fit } from '@glimpse/media';
import * as make from '../../../../../test/fixtures/make.js';
import { checkPngIntegrity, verifyPngIntegrity } from './integrity.js';

/** A copy whose first `type` chunk has a wrong CRC. */
function breakCrc(png: Uint8Array, type: string): Uint8Array {
  const copy = png.slice();
  const view = new DataView(copy.buffer);
  for (let offset = 8; offset < copy.length; ) {
    const length = view.getUint32(offset);
    if (new TextDecoder().decode(copy.subarray(offset + 4, offset + 8)) === type) {
      copy[offset + 8 + length + 3]! ^= 0x55;
      return copy;
    }
    offset += 12 + length;
  }
  throw new Error(`no ${type} chunk`);
}

describe('verifyPngIntegrity', () => {
  it('reads a PNG of many 64 KB input buffers whole, and refuses it cut short or with damaged image data', async () => {
    // Noise does not compress: 300 KB of PNG, five input buffers.
    const [width, height] = [320, 320];
    const pixels = { data: make.garbage(width * height * 3), width, height, channels: 3 as const };
    const png = await make.toBytes(make.fromPixels(pixels).png());
    expect(png.byteLength).toBeGreaterThan(4 * 65536);
    expect(await verifyPngIntegrity(png)).toBeUndefined();
    expect(await verifyPngIntegrity(png, true)).toBeUndefined();
    // Cut inside the image data: the zlib stream ends early.
    const cut = png.subarray(0, Math.floor(png.byteLength * 0.7));
    expect(await verifyPngIntegrity(cut, true)).toMatchObject({ fatal: true });
  });

  it('checks every chunk CRC itself unless told the structural check has, which then catches what it leaves', async () => {
    const png = await make.screenshotPng({ width: 300, height: 200 });
    const withText = make.insertPngChunk(png, 'tEXt', new TextEncoder().encode('Comment\0hello'));
    for (const [type, fatal] of [
      ['IDAT', true],
      ['tEXt', false],
    ] as const) {
      const damaged = breakCrc(withText, type);
      // libpng's own CRC pass: an IDAT CRC is an error, an ancillary one a warning.
      expect(await verifyPngIntegrity(damaged)).toMatchObject({ fatal, problem: expect.stringMatching(/CRC/i) });
      // `checked`: libpng leaves the CRCs to the structural check, which finds this one.
      expect(await verifyPngIntegrity(damaged, true)).toBeUndefined();
      expect(checkPngIntegrity(damaged)).toMatchObject({ fatal, problem: expect.stringContaining('CRC') });
      // So `process`, which runs the structural check before the read, still never sends it untouched.
      const sent = await fit(damaged).catch((error: { code: string }) => error);
      if (fatal) expect(sent).toMatchObject({ code: 'E_CORRUPT' });
      else expect(sent).toMatchObject({ reencoded: true });
    }
  });
});
