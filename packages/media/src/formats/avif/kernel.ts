// The host side of glimpse's dav1d build (wasm/avif): an instance per call (one a clean call before left,
// reset: runtime/kernel-pool.ts; a dropped one's memory is not soon released in every runtime), whose memory may be capped
// (setAvifMemoryLimit), that decodes one AV1 image item at a time into one of two slots (colour and alpha)
// and turns them into RGBA rows; its failures as typed errors.
import { isMediaError, MediaError } from '../../errors.js';
import {
  copyIn,
  KernelFailure,
  kernelOutOfMemory,
  type KernelExports,
  withKernel,
} from '../../runtime/kernel-instance.js';
import { undecodable, unsupportedFeature } from '../codec-errors.js';
import { heifItemBytes, type HeifItem, type HeifLayout } from '../heif/layout.js';

interface AvifExports extends KernelExports {
  release(pointer: number): void;
  error_message(): number;
  decode_item(slot: number, data: number, size: number, maxPixels: number, info: number): number;
  prepare_rgba(
    matrix: number,
    fullRange: number,
    alphaFullRange: number,
    primaries: number,
    premultiplied: number,
  ): number;
  rgba_rows(out: number, stride: number, y: number, rows: number, columns: number, factor: number): number;
  set_memory_limit(bytes: number): void;
}

const FUNCTIONS = ['release', 'error_message', 'decode_item', 'prepare_rgba', 'rgba_rows', 'set_memory_limit'] as const;

/** decode.c's status codes. */
const UNSUPPORTED = 2;

const OUT_OF_MEMORY = 3;

const TOO_MANY_PIXELS = 4;

const OVER_MEMORY_LIMIT = 5;

/** The most WASM memory an AVIF decoder instance may have, in bytes; 0: no limit (setAvifMemoryLimit). */
let memoryLimit = 0;

/**
 * Caps each AVIF decoder instance's WASM memory at `bytes` (0: no cap), for runtimes with a hard memory
 * limit: the Workers entry sets it, because an isolate over its 128 MB is killed, not given an error. An
 * AV1 frame is decoded whole (a 12 MP 10-bit 4:4:4 one takes 72.6 MiB), so an item whose frame, with
 * dav1d's working buffers, would not fit is refused with E_TOO_LARGE before it is decoded, and the cap
 * itself (malloc failing) stops any allocation the header did not announce.
 */
export function setAvifMemoryLimit(bytes: number): void {
  memoryLimit = Math.max(0, Math.min(Math.floor(bytes), 0xffff0000));
}

const COLOUR = 0;

const ALPHA = 1;

/** dav1d's pixel layouts (decode.c's info[3]) and H.273's identity matrix (RGB stored as it is). */
const MONOCHROME = 0;

const YUV444 = 3;

const IDENTITY_MATRIX = 0;

/** What decode_item reports about a coded item (decode.c's info[]). */
interface ItemInfo {
  width: number;
  height: number;
  bits: number;
  layout: number;
  matrix: number;
  fullRange: boolean;
  primaries: number;
  lossless: boolean;
}

export class AvifFailure extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Runs `use` with a decoder for the items of one file, its memory capped as setAvifMemoryLimit said; the
 * instance is kept for the next file when `use` returns, dropped when it throws.
 */
export function withAvifDecoder<R>(
  bytes: Uint8Array,
  layout: HeifLayout,
  maxInputPixels: number,
  use: (decoder: ItemDecoder) => R,
): Promise<R> {
  return withKernel<AvifExports, R>('avif', FUNCTIONS, new Uint8Array(0), (codec) => {
    codec.set_memory_limit(memoryLimit);
    const info = codec.alloc(9 * 4);
    if (info === 0) throw kernelOutOfMemory('AVIF', 36);
    return use(new ItemDecoder(codec, bytes, layout, info, maxInputPixels));
  });
}

/** Decodes items into the module's two slots and sets up their conversion to RGBA. */
export class ItemDecoder {
  /** Every item decoded so far holds exact pixels (DecodedAvif.lossless). */
  allLossless = true;

  constructor(
    private readonly codec: AvifExports,
    private readonly bytes: Uint8Array,
    private readonly layout: HeifLayout,
    private readonly info: number,
    private readonly maxInputPixels: number,
  ) {}

  /** Decodes `colour` (and `alpha`) and prepares the conversion; returns the colour item's size. */
  load(colour: HeifItem, alpha: HeifItem | undefined): ItemInfo {
    const picture = this.decode(COLOUR, colour);
    const alphaPicture = alpha && this.decode(ALPHA, alpha);
    if (alphaPicture && (alphaPicture.width !== picture.width || alphaPicture.height !== picture.height)) {
      throw new AvifFailure(
        1,
        `the alpha image is ${alphaPicture.width}×${alphaPicture.height}, the colour image ${picture.width}×${picture.height}`,
      );
    }
    // The container's nclx describes the colour; without one, the AV1 sequence header does.
    const nclx = this.layout.nclx;
    const matrix = nclx?.matrix ?? picture.matrix;
    const fullRange = nclx?.fullRange ?? picture.fullRange;
    const primaries = nclx?.primaries ?? picture.primaries;
    // AV1's lossless mode keeps the YUV planes exact; the RGB is exact only without subsampling or mixing.
    const exactColour =
      picture.lossless &&
      fullRange &&
      (picture.layout === MONOCHROME || (picture.layout === YUV444 && matrix === IDENTITY_MATRIX));
    this.allLossless &&= exactColour && (!alphaPicture || (alphaPicture.lossless && alphaPicture.fullRange));
    this.check(
      this.codec.prepare_rgba(
        matrix,
        fullRange ? 1 : 0,
        alphaPicture?.fullRange ? 1 : 0,
        primaries,
        this.layout.premultiplied ? 1 : 0,
      ),
    );
    return picture;
  }

  private decode(slot: number, item: HeifItem): ItemInfo {
    const data = heifItemBytes(this.bytes, this.layout, item, 'AVIF');
    const pointer = copyIn(this.codec, data, 'AVIF');
    try {
      this.check(this.codec.decode_item(slot, pointer, data.byteLength, this.maxInputPixels, this.info));
    } finally {
      this.codec.release(pointer);
    }
    const [width = 0, height = 0, bits = 8, layout = 1, matrix = 2, fullRange = 0, primaries = 2, , lossless = 0] =
      new Uint32Array(this.codec.memory.buffer, this.info, 9);
    return { width, height, bits, layout, matrix, fullRange: fullRange !== 0, primaries, lossless: lossless !== 0 };
  }

  /** Writes `rows` RGBA rows from output row `y`, `columns` wide, shrunk by `factor`, into `out`. */
  rows(out: number, stride: number, y: number, rows: number, columns: number, factor: number): void {
    this.check(this.codec.rgba_rows(out, stride, y, rows, columns, factor));
  }

  alloc(bytes: number): number {
    const pointer = this.codec.alloc(bytes);
    if (pointer === 0) throw kernelOutOfMemory('AVIF', bytes);
    return pointer;
  }

  memory(): ArrayBuffer {
    return this.codec.memory.buffer;
  }

  private check(status: number): void {
    if (status === 0) return;
    const memory = new Uint8Array(this.codec.memory.buffer);
    const start = this.codec.error_message();
    let end = start;
    while (end < memory.length && memory[end] !== 0) end++;
    throw new AvifFailure(status, new TextDecoder().decode(memory.subarray(start, end)) || 'dav1d gave no reason');
  }
}

export function typedError(cause: unknown): unknown {
  if (isMediaError(cause)) return cause;
  if (cause instanceof AvifFailure) {
    if (cause.status === OUT_OF_MEMORY) return kernelOutOfMemory('AVIF');
    if (cause.status === OVER_MEMORY_LIMIT) {
      return new MediaError(
        'E_TOO_LARGE',
        `The AVIF is too large to decode within this runtime's memory: its ${cause.message}. AV1 frames are decoded whole. Send a smaller image (fewer pixels, or 8-bit 4:2:0).`,
        { format: 'AVIF', memoryLimit },
        { cause },
      );
    }
    // The header's sizes passed the pixel guard before decoding, so AV1 data over the limit contradicts them:
    // the data is damaged (or built to mislead). dav1d's own wording is a log line, not a reason to quote.
    if (cause.status === TOO_MANY_PIXELS) {
      return new MediaError(
        'E_CORRUPT',
        'The AVIF image data declares a larger frame than the file header does, and over the pixel limit: the file is damaged. Re-export or re-download it.',
        { format: 'AVIF' },
        { cause },
      );
    }
    if (cause.status === UNSUPPORTED) {
      return unsupportedFeature('image/avif', 'AVIF', cause.message, cause);
    }
    return undecodable('AVIF', cause.message, 're-export or re-download it', cause);
  }
  if (cause instanceof KernelFailure || cause instanceof WebAssembly.RuntimeError) {
    return new MediaError(
      'E_CORRUPT',
      `The AVIF decoder stopped (${cause.message}): the file is damaged, or too large for this runtime's memory. Re-export it, or send a smaller image.`,
      { format: 'AVIF' },
      { cause },
    );
  }
  return cause;
}
