// Runs glimpse's own SIMD resize kernel (wasm/resize/resize.c): premultiply when there is real alpha,
// box pre-shrink by the integer factor that leaves at least 2× for the final filter, then separable
// Lanczos-3, all in gamma space on 8-bit samples.
import { MediaError } from '../errors.js';
import type { Raster } from '../types.js';
import { wasmModule } from '../wasm.js';
import { boxTable, lanczosTable, type FilterTable } from './filter-tables.js';

interface ResizeExports {
  memory: WebAssembly.Memory;
  alloc(bytes: number): number;
  convolve_rows(src: number, srcWidth: number, rows: number, dst: number, dstWidth: number, starts: number, pairWeights: number, taps: number): void;
  convolve_columns(src: number, rowBytes: number, srcRows: number, dst: number, dstRows: number, starts: number, weights: number, taps: number, rowPointers: number): void;
  resize_streaming(
    src: number, srcWidth: number, srcHeight: number, dst: number, dstWidth: number, dstHeight: number,
    rowStarts: number, rowPairWeights: number, rowTaps: number, colStarts: number, colWeights: number, colTaps: number,
    ring: number, rowPointers: number,
  ): void;
  is_opaque(rgba: number, pixels: number): number;
  premultiply(rgba: number, pixels: number): void;
  unpremultiply(rgba: number, pixels: number): void;
}

const FUNCTIONS = ['alloc', 'convolve_rows', 'convolve_columns', 'resize_streaming', 'is_opaque', 'premultiply', 'unpremultiply'] as const;

function isResizeExports(exports: WebAssembly.Exports): exports is WebAssembly.Exports & ResizeExports {
  return exports['memory'] instanceof WebAssembly.Memory && FUNCTIONS.every((name) => typeof exports[name] === 'function');
}

/** One resize's scratch space: a fresh instance, so its memory is released when the call ends. */
class Scratch {
  constructor(private readonly kernel: ResizeExports) {}

  alloc(bytes: number): number {
    // Spare bytes: on images narrower than the filter, the row kernel reads zero-weighted taps past the end.
    const pointer = this.kernel.alloc(bytes + 64);
    if (pointer === 0) {
      throw new MediaError('E_TOO_LARGE', `The resize kernel could not get ${bytes} bytes of memory. Lower maxInputPixels or resize a smaller image.`);
    }
    return pointer;
  }

  put(array: Uint8Array | Int16Array | Int32Array): number {
    const pointer = this.alloc(array.byteLength);
    new Uint8Array(this.kernel.memory.buffer, pointer, array.byteLength).set(new Uint8Array(array.buffer, array.byteOffset, array.byteLength));
    return pointer;
  }

  take(pointer: number, bytes: number): Uint8Array {
    return new Uint8Array(this.kernel.memory.buffer.slice(pointer, pointer + bytes));
  }
}

interface Stage {
  pointer: number;
  width: number;
  height: number;
}

/** Integer box factor that still leaves the final filter at least a 2× reduction (or none when shrinking < 4×). */
export function boxFactor(input: number, output: number): number {
  return Math.max(1, Math.floor(input / output / 2));
}

/** Resizes an RGBA8 raster to exactly `width`×`height`. */
export async function resizeWithKernel(src: Raster, width: number, height: number, hasAlpha: boolean): Promise<Raster> {
  const { exports } = await WebAssembly.instantiate(await wasmModule('resize'), {});
  if (!isResizeExports(exports)) throw new MediaError('E_WASM_UNAVAILABLE', 'The resize WASM module lacks the expected exports: rebuild it with scripts/build-wasm.sh.');
  const kernel = exports;
  const scratch = new Scratch(kernel);

  let stage: Stage = { pointer: scratch.put(src.data), width: src.width, height: src.height };
  const pixels = src.width * src.height;
  const premultiplied = hasAlpha && kernel.is_opaque(stage.pointer, pixels) === 0;
  if (premultiplied) kernel.premultiply(stage.pointer, pixels);

  const boxX = boxFactor(src.width, width);
  const boxY = boxFactor(src.height, height);
  if (boxX > 1) stage = resizeRows(kernel, scratch, stage, boxTable(stage.width, boxX, 2));
  if (boxY > 1) stage = resizeColumns(kernel, scratch, stage, boxTable(stage.height, boxY, 1));
  const rows = src.width !== width ? lanczosTable(src.width / boxX, stage.width, width, 2) : undefined;
  const columns = src.height !== height ? lanczosTable(src.height / boxY, stage.height, height, 1) : undefined;
  if (rows && columns) stage = resizeBoth(kernel, scratch, stage, rows, columns);
  else if (rows) stage = resizeRows(kernel, scratch, stage, rows);
  else if (columns) stage = resizeColumns(kernel, scratch, stage, columns);

  if (premultiplied) kernel.unpremultiply(stage.pointer, width * height);
  return { data: scratch.take(stage.pointer, width * height * 4), width, height };
}

function resizeRows(kernel: ResizeExports, scratch: Scratch, stage: Stage, table: FilterTable): Stage {
  const width = table.starts.length;
  const pointer = scratch.alloc(width * stage.height * 4);
  kernel.convolve_rows(stage.pointer, stage.width, stage.height, pointer, width, scratch.put(table.starts), scratch.put(table.weights), table.taps);
  return { pointer, width, height: stage.height };
}

function resizeColumns(kernel: ResizeExports, scratch: Scratch, stage: Stage, table: FilterTable): Stage {
  const height = table.starts.length;
  const pointer = scratch.alloc(stage.width * height * 4);
  const rowPointers = scratch.alloc(table.taps * 4);
  kernel.convolve_columns(stage.pointer, stage.width * 4, stage.height, pointer, height, scratch.put(table.starts), scratch.put(table.weights), table.taps, rowPointers);
  return { pointer, width: stage.width, height };
}

/** Both axes in one streaming sweep: only `columns.taps` filtered rows exist at a time. */
function resizeBoth(kernel: ResizeExports, scratch: Scratch, stage: Stage, rows: FilterTable, columns: FilterTable): Stage {
  const width = rows.starts.length;
  const height = columns.starts.length;
  const pointer = scratch.alloc(width * height * 4);
  const ring = scratch.alloc(columns.taps * width * 4);
  const rowPointers = scratch.alloc(columns.taps * 4);
  kernel.resize_streaming(
    stage.pointer, stage.width, stage.height, pointer, width, height,
    scratch.put(rows.starts), scratch.put(rows.weights), rows.taps,
    scratch.put(columns.starts), scratch.put(columns.weights), columns.taps,
    ring, rowPointers,
  );
  return { pointer, width, height };
}
