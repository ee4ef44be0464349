// PNG adapter: the squoosh PNG codec (via @jsquash/png); one WASM instance serves decode and encode.
import initPng, { decode as decodeWasm, encode as encodeWasm } from '@jsquash/png/codec/pkg/squoosh_png.js';
import type { Raster } from '../types.js';
import { wasmModule } from '../wasm.js';
import { corrupt, lazy, rasterFrom } from './codec-support.js';

const ready = lazy(async () => initPng(await wasmModule('squoosh_png')));

/** Decodes any PNG (palette, tRNS, gray, gray+alpha, 16-bit, interlaced) to RGBA8. */
export async function decodePng(bytes: Uint8Array): Promise<Raster> {
  await ready();
  try {
    return rasterFrom(decodeWasm(bytes));
  } catch (cause) {
    throw corrupt('PNG', cause);
  }
}

/** Lossless RGBA8 PNG. */
export async function encodePng(raster: Raster): Promise<Uint8Array> {
  await ready();
  return encodeWasm(raster.data, raster.width, raster.height, 8);
}
