// Runs glimpse's own SIMD resize kernel (wasm/resize/resize.c) as a stream: source rows go in a band at
// a time, finished rows come out a band at a time. The passes are a box pre-shrink by the integer
// factor that leaves at least 2× for the final filter, then separable Lanczos-3, all in gamma space on
// 8-bit samples, with premultiplied alpha when the image may have any. Each vertical pass holds only the
// rows its window spans, so a 50 MP source costs the kernel a few hundred KB.
import { MediaError } from '../errors.js';
import type { Raster } from '../types.js';
import { keepForReuse, rememberStartedImage, takeIdleInstance } from '../runtime/kernel-pool.js';
import { wasmModule } from '../runtime/wasm.js';
import type { RowSink, Size } from './contract.js';
import { boxTable, lanczosTable, type FilterTable } from './filter-tables.js';

interface ResizeExports {
  memory: WebAssembly.Memory;
  alloc(bytes: number): number;
  resize_begin(tables: number, count: number, width: number, premultiply: number, outCapacity: number): number;
  resize_push(rows: number, count: number): void;
  resize_end(): number;
}

const FUNCTIONS = ['alloc', 'resize_begin', 'resize_push', 'resize_end'] as const;

function isResizeExports(exports: WebAssembly.Exports): exports is WebAssembly.Exports & ResizeExports {
  return (
    exports['memory'] instanceof WebAssembly.Memory && FUNCTIONS.every((name) => typeof exports[name] === 'function')
  );
}

/** Rows move in and out in bands of about this many bytes: small enough to stay in cache. */
const BAND_BYTES = 256 * 1024;

/** Integer box factor that still leaves the final filter at least a 2× reduction (or none when shrinking < 4×). */
export function boxFactor(input: number, output: number): number {
  return Math.max(1, Math.floor(input / output / 2));
}

interface Pass {
  table: FilterTable;
  vertical: boolean;
  input: number;
}

/** The passes from `source` to `target`, in the kernel's order: box across, box down, Lanczos across, Lanczos down. */
function passesFor(source: Size, target: Size): Pass[] {
  const passes: Pass[] = [];
  const boxX = boxFactor(source.width, target.width);
  const boxY = boxFactor(source.height, target.height);
  let width = source.width;
  let height = source.height;
  if (boxX > 1) {
    passes.push({ table: boxTable(width, boxX, 2), vertical: false, input: width });
    width = Math.ceil(width / boxX);
  }
  if (boxY > 1) {
    passes.push({ table: boxTable(height, boxY, 1), vertical: true, input: height });
    height = Math.ceil(height / boxY);
  }
  if (source.width !== target.width)
    passes.push({ table: lanczosTable(source.width / boxX, width, target.width, 2), vertical: false, input: width });
  if (source.height !== target.height)
    passes.push({ table: lanczosTable(source.height / boxY, height, target.height, 1), vertical: true, input: height });
  return passes;
}

/** Called with each band of finished rows: `count` rows of the target width, a view valid only during the call. */
export type RowsOut = (rows: Uint8Array, count: number) => void;

/** A resize that is running: write every source row in order, then `end`. */
export interface ResizeStream {
  write(pixels: Uint8Array, rows: number): void;
  /** Checks that every output row was made. */
  end(): void;
}

/** An instance of the kernel, ready for one resize (instantiated ahead, so rows can then flow synchronously). */
export interface ResizeKernel {
  start(request: { source: Size; target: Size; premultiply: boolean }, out: RowsOut): ResizeStream;
  /** The instance's memory now (it only grows): what the resize costs, for tests and reports. */
  memoryBytes(): number;
  /**
   * Gives the instance back when its resize did not finish: unused (the decoder delivered the target size
   * itself, JPEG's DCT scaling) or cut short by the decoder's error. Not after one of its own calls threw
   * (the stack pointer, a WASM global, stays where the error left it): that instance is dropped.
   */
  unused(): void;
}

/** A started instance and the row callback its `emit_rows` import calls, set by each resize. */
interface ResizeInstance {
  kernel: ResizeExports;
  binding: { out: RowsOut | undefined };
}

/**
 * An instance for one resize: reset from the one an earlier resize finished with, or fresh. A resize that
 * makes every row gives its instance back for the next (runtime/kernel-pool.ts); one that fails drops it.
 */
export async function resizeKernel(): Promise<ResizeKernel> {
  const { kernel, binding } = takeIdleInstance<ResizeInstance>('resize') ?? (await startResizeKernel());
  const instance: ResizeInstance = { kernel, binding };
  let started = false;
  // Given back or dropped already; `inCall` while one of its exports runs (rows go out to JS from there).
  let settled = false;
  let inCall = false;
  const giveBack = () => {
    if (settled || inCall) return;
    settled = true;
    binding.out = undefined;
    keepForReuse('resize', instance, kernel.memory);
  };
  const call = <R>(run: () => R): R => {
    inCall = true;
    try {
      const result = run();
      inCall = false;
      return result;
    } catch (error) {
      settled = true; // threw inside the kernel (or its emit_rows): dropped
      throw error;
    }
  };
  return {
    memoryBytes: () => kernel.memory.buffer.byteLength,
    unused: giveBack,
    start({ source, target, premultiply }, rowsOut) {
      if (started || settled) throw new Error('a resize kernel instance runs one resize');
      started = true;
      const passes = passesFor(source, target);
      const outRowBytes = target.width * 4;
      const outCapacity = Math.max(1, Math.floor(BAND_BYTES / outRowBytes));
      binding.out = (view, count) => rowsOut(view.subarray(0, count * outRowBytes), count);
      const put = (array: Int32Array | Int16Array | Uint32Array): number => {
        const pointer = alloc(kernel, array.byteLength);
        new Uint8Array(kernel.memory.buffer, pointer, array.byteLength).set(
          new Uint8Array(array.buffer, array.byteOffset, array.byteLength),
        );
        return pointer;
      };
      const descriptors = new Uint32Array(passes.length * 6);
      passes.forEach(({ table, vertical, input }, i) => {
        descriptors.set(
          [put(table.starts), put(table.weights), table.taps, input, table.starts.length, vertical ? 1 : 0],
          i * 6,
        );
      });
      // Without a pass, premultiplying there and back would only lose precision.
      const premultiplied = premultiply && passes.length > 0;
      const begun = call(() =>
        kernel.resize_begin(put(descriptors), passes.length, source.width, premultiplied ? 1 : 0, outCapacity),
      );
      if (begun === 0) throw outOfMemory(outCapacity * outRowBytes);
      const inRowBytes = source.width * 4;
      const bandRows = Math.max(1, Math.floor(BAND_BYTES / inRowBytes));
      // Slack after the band: the row kernel reads zero-weighted taps past a row's end.
      const mostTaps = Math.max(1, ...passes.map((pass) => pass.table.taps));
      const band = alloc(kernel, bandRows * inRowBytes + 16 + mostTaps * 4);
      let received = 0;
      return {
        write(pixels, rows) {
          if (received + rows > source.height) throw new Error(`the resize was given more than ${source.height} rows`);
          for (let done = 0; done < rows; ) {
            const count = Math.min(bandRows, rows - done);
            new Uint8Array(kernel.memory.buffer, band, count * inRowBytes).set(
              pixels.subarray(done * inRowBytes, (done + count) * inRowBytes),
            );
            call(() => kernel.resize_push(band, count));
            done += count;
          }
          received += rows;
        },
        end() {
          const made = call(() => kernel.resize_end());
          if (received !== source.height || made !== target.height) {
            throw new Error(`the resize made ${made} of ${target.height} rows from ${received} of ${source.height}`);
          }
          giveBack();
        },
      };
    },
  };
}

async function startResizeKernel(): Promise<ResizeInstance> {
  let memory: WebAssembly.Memory | undefined;
  const binding: ResizeInstance['binding'] = { out: undefined };
  const imports = {
    env: {
      emit_rows: (pointer: number, count: number) => {
        if (!binding.out || !memory) throw new Error('the resize kernel emitted rows before it was started');
        binding.out(new Uint8Array(memory.buffer, pointer), count);
      },
    },
  };
  const { exports } = await WebAssembly.instantiate(await wasmModule('resize'), imports);
  if (!isResizeExports(exports))
    throw new MediaError(
      'E_WASM_UNAVAILABLE',
      'The resize WASM module lacks the expected exports: rebuild it with scripts/build-wasm.sh.',
    );
  memory = exports.memory;
  rememberStartedImage('resize', memory);
  return { kernel: exports, binding };
}

function alloc(kernel: ResizeExports, bytes: number): number {
  const pointer = kernel.alloc(bytes);
  if (pointer === 0) throw outOfMemory(bytes);
  return pointer;
}

function outOfMemory(bytes: number): MediaError {
  return new MediaError(
    'E_TOO_LARGE',
    `The resize kernel could not get ${bytes} bytes of memory. Lower maxInputPixels or resize a smaller image.`,
  );
}

/**
 * A sink that resizes the rows it is given to `target` and passes the finished rows on to `out`. The
 * kernel instance comes from `resizeKernel()`, made before decoding starts.
 */
export function resizingSink(kernel: ResizeKernel, target: Size, out: RowsOut): RowSink & { end(): void } {
  let stream: ResizeStream | undefined;
  return {
    start(layout) {
      stream = kernel.start({ source: layout, target, premultiply: layout.mayHaveAlpha }, out);
    },
    write(pixels, rows) {
      if (!stream) throw new Error('rows were written before start');
      stream.write(pixels, rows);
    },
    end() {
      if (!stream) throw new Error('the decoder delivered no rows');
      stream.end();
    },
  };
}

/** Resizes a whole RGBA8 raster to exactly `width`×`height` (the rows stream through the kernel). */
export async function resizeWithKernel(src: Raster, width: number, height: number, hasAlpha: boolean): Promise<Raster> {
  const kernel = await resizeKernel();
  const data = new Uint8Array(width * height * 4);
  let filled = 0;
  const stream = kernel.start({ source: src, target: { width, height }, premultiply: hasAlpha }, (rows) => {
    data.set(rows, filled);
    filled += rows.byteLength;
  });
  stream.write(src.data, src.height);
  stream.end();
  return { data, width, height };
}
