import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { initWasm } from '@resvg/resvg-wasm';
import { describe, expect, it } from 'vitest';
import { process as fit } from '@glimpse/media';
import { decodeIndependently } from '../../../../test/support/pixels.js';

const encode = (text: string) => new TextEncoder().encode(text);

describe('SVG rendering', () => {
  it('starts even when the host app initialised resvg-wasm first', async () => {
    const wasm = await readFile(createRequire(import.meta.url).resolve('@resvg/resvg-wasm/index_bg.wasm'));
    await initWasm(wasm);
    const result = await fit(encode('<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><rect width="4" height="4" fill="red"/></svg>'));
    expect(result.mediaType).toBe('image/png');
  });

  it('writes straight alpha: 50 % green is (0,128,0,128), not the premultiplied (0,64,0,128)', async () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8" fill="green" fill-opacity="0.5"/></svg>';
    const decoded = await decodeIndependently((await fit(encode(svg))).data);
    expect(Array.from(decoded.data.subarray(0, 4))).toEqual([0, 128, 0, 128]);
  });

  it('keeps the colour of faint pixels (alpha 10 %)', async () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8" fill="#ff8000" fill-opacity="0.1"/></svg>';
    const [r, g, b] = (await decodeIndependently((await fit(encode(svg))).data)).data;
    expect(r).toBe(255);
    expect(Math.abs(g! - 128)).toBeLessThanOrEqual(6);
    expect(b).toBe(0);
  });
});
