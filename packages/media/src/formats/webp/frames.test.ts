import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import decode, { init } from '@jsquash/webp/decode.js';
import { firstWebpFrame } from './frames.js';
import { probe } from '../../probe.js';
import { MediaError } from '../../errors.js';
import { webp } from '../../../../../test/fixtures/make.js';
import { throwsWith } from '../../../../../test/support/typed-errors.js';

const require = createRequire(import.meta.url);
/** jSquash's init also takes a compiled module first; its published .d.ts omits that overload. */
const initWithModule: (module: WebAssembly.Module) => Promise<void> = init;

beforeAll(async () => {
  await initWithModule(
    await WebAssembly.compile(readFileSync(require.resolve('@jsquash/webp/codec/dec/webp_dec.wasm'))),
  );
});

async function decodeStill(bytes: Uint8Array): Promise<{ data: Uint8ClampedArray; width: number; height: number }> {
  return decode(bytes.slice().buffer);
}

/** Frame 1 placed on a transparent canvas, as the integrator composites it. */
function composite(
  frame: { data: Uint8ClampedArray; width: number; height: number },
  canvasWidth: number,
  canvasHeight: number,
  x: number,
  y: number,
): Uint8Array {
  const canvas = new Uint8Array(canvasWidth * canvasHeight * 4);
  for (let row = 0; row < frame.height; row++) {
    canvas.set(
      frame.data.subarray(row * frame.width * 4, (row + 1) * frame.width * 4),
      ((y + row) * canvasWidth + x) * 4,
    );
  }
  return canvas;
}

/** Largest per-channel difference, counting colour only where the reference pixel is visible. */
function maxDifference(ours: Uint8Array, reference: Uint8Array): number {
  let max = 0;
  for (let i = 0; i < reference.length; i += 4) {
    max = Math.max(max, Math.abs(ours[i + 3]! - reference[i + 3]!));
    if (reference[i + 3] === 0) continue;
    for (let c = 0; c < 3; c++) max = Math.max(max, Math.abs(ours[i + c]! - reference[i + c]!));
  }
  return max;
}

describe('firstWebpFrame', () => {
  it.each([
    ['lossy with ALPH (VP8X + ALPH + VP8 still)', { alpha: true }],
    ['lossy, first frame cropped and offset on the canvas', { alpha: true, alphaLayout: 'strip' as const }],
    ['opaque lossy', {}],
    ['lossless (VP8L still)', { alpha: true, lossless: true }],
  ])('%s: the still decodes with libwebp to what sharp shows as frame 1', async (_, options) => {
    const animation = await webp({ animated: true, frames: 3, width: 120, height: 80, ...options });
    const frame = firstWebpFrame(animation);
    if (!frame) throw new Error('expected an animated WebP');
    expect([frame.canvasWidth, frame.canvasHeight]).toEqual([120, 80]);

    const still = await probe(frame.still);
    expect([still.mediaType, still.frames, still.width, still.height]).toEqual([
      'image/webp',
      1,
      frame.width,
      frame.height,
    ]);

    const decoded = await decodeStill(frame.still);
    expect([decoded.width, decoded.height]).toEqual([frame.width, frame.height]);
    const ours = composite(decoded, frame.canvasWidth, frame.canvasHeight, frame.x, frame.y);
    const reference = new Uint8Array(await sharp(animation, { pages: 1 }).ensureAlpha().raw().toBuffer());
    expect(reference.length).toBe(ours.length);
    expect(maxDifference(ours, reference)).toBeLessThanOrEqual(2);
  });

  it('shows the frame offset when the encoder cropped frame 1', async () => {
    const frame = firstWebpFrame(await webp({ animated: true, alpha: true, alphaLayout: 'strip' }));
    expect(frame && [frame.x, frame.y, frame.width, frame.height]).toEqual([30, 0, 90, 80]);
  });

  it('the still carries VP8X with the alpha flag when frame 1 has an ALPH chunk', async () => {
    const frame = firstWebpFrame(await webp({ animated: true, alpha: true }));
    if (!frame) throw new Error('expected an animated WebP');
    const chunkTypes = [];
    for (let at = 12; at + 8 <= frame.still.length; ) {
      const length = new DataView(frame.still.buffer).getUint32(at + 4, true);
      chunkTypes.push(new TextDecoder().decode(frame.still.subarray(at, at + 4)));
      at += 8 + length + (length & 1);
    }
    expect(chunkTypes).toEqual(['VP8X', 'ALPH', 'VP8 ']);
    expect(frame.still[20]! & 0x10).toBe(0x10);
  });

  it('returns undefined for still WebPs', async () => {
    expect(firstWebpFrame(await webp())).toBeUndefined();
    expect(firstWebpFrame(await webp({ alpha: true }))).toBeUndefined();
    expect(firstWebpFrame(await webp({ lossless: true }))).toBeUndefined();
  });

  it('refuses a cut animation as E_CORRUPT', async () => {
    const animation = await webp({ animated: true });
    throwsWith(() => firstWebpFrame(animation.subarray(0, 200)), MediaError, 'E_CORRUPT');
  });
});
