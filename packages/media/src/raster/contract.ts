// The codec contract. Every format's decoder (formats/<name>/) has one shape: probe facts in, rows out in
// bands, into a sink (the resizer, or the output raster when no resize is needed). Every encoder takes rows
// in, a band at a time, from a source. So no stage ever needs a whole decoded image, and a new format's
// decoder is a function of type `Decoder<ItsFacts>` (its facts: the format's probe result in types.ts).
import type { Region } from '../types.js';

/** A pixel size. */
export interface Size {
  width: number;
  height: number;
}

/** What a decoder announces before its first row. */
export interface RowLayout extends Size {
  /**
   * Whether any pixel may be less than opaque, as the header says (an alpha channel, a tRNS chunk, a
   * transparent GIF index, an animation frame smaller than its canvas). `false` promises alpha 255 in
   * every row, and lets the resizer skip premultiplying.
   */
  mayHaveAlpha: boolean;
  /**
   * The rows come bottom row first (a bottom-up BMP, whose RLE data cannot be read in any other order).
   * The pipeline then turns the fitted output over instead of holding the image.
   */
  bottomUp?: boolean;
  /**
   * Set when the decoder delivers only part of its image (it was given a `crop` and can decode a window of
   * it, as JPEG can): the rows are the rectangle at `x`, `y` of the `whole` image it would otherwise
   * deliver, `width` × `height` of it. Top-down rows only.
   */
  part?: { x: number; y: number; whole: Size };
}

/** Where a decoder's rows go. */
export interface RowSink {
  /** Called exactly once, before the first row. */
  start(layout: RowLayout): void;
  /**
   * The next `rows` rows, following the previous band: `layout.width` RGBA8 pixels each (straight alpha),
   * back to back in `pixels`. `pixels` may be a view of a codec's memory: it is valid only during the
   * call, and the sink copies what it keeps.
   */
  write(pixels: Uint8Array, rows: number): void;
  /**
   * The sink needs no more rows (it keeps a region that ended above them). A decoder that reads rows one
   * band at a time may stop there instead of decoding the rest (JPEG does); the others go on, and the sink
   * ignores what follows.
   */
  enough?(): boolean;
}

export interface DecodeRequest<Facts> {
  bytes: Uint8Array;
  /** What `probe` read from the header. A decoder never detects the type or reads these facts again. */
  facts: Facts;
  /**
   * The size, as stored (before EXIF orientation), that the pipeline will resize to. A decoder may
   * deliver fewer pixels than stored when its rows still cover this size on both axes (JPEG's DCT
   * scaling), or exactly this size (libwebp's rescaler); the sink resizes whatever difference is left.
   */
  cover: Size;
  sink: RowSink;
  /**
   * Only this rectangle of the stored pixels is kept (a region). A decoder that can may deliver a window of
   * its image that holds it instead of the whole (and says so in the layout's `part`), pixel for pixel the
   * same as those of the whole decode; the others deliver every row.
   */
  crop?: Region;
  /** The decompression-bomb budget: a decoder that learns of more pixels than the header declared refuses them. */
  maxInputPixels: number;
}

export interface DecodeResult {
  /** Whether some delivered pixel is not fully opaque (checked as the rows went by, never in a second scan). */
  hasAlpha: boolean;
  /**
   * The source stores its pixels exactly (PNG, GIF, BMP, an icon, a TIFF not JPEG-compressed, lossless
   * WebP, a lossless AVIF), so the output stays lossless: PNG, never JPEG. The decoder says so because only
   * it can know for every format (an AVIF tells in its coded frames, not its header).
   */
  lossless: boolean;
  /**
   * Set when the file ends early and the decoder filled in what was missing (a cut-off JPEG): of the
   * `height` rows delivered, the first `realRows` came from the file; `eofScan` is the progressive scan
   * the data ran out in.
   */
  recovered?: { realRows: number; height: number; eofScan: number };
  /**
   * Set when the decoder read damaged data and filled in what it could not read, all rows delivered (libjpeg
   * inside a TIFF): its complaint, for a warning that part of the image may be wrong.
   */
  damaged?: string;
}

/**
 * A decoder: calls `sink.start` once, then hands over every row exactly once, in order (top to bottom,
 * or bottom to top when the layout says so), then resolves. It may hold what its format forces it to
 * (an interlaced PNG's passes, a progressive JPEG's coefficients, an interlaced GIF's indices), and says
 * so in its file. Damaged data is a `MediaError` `E_CORRUPT`; an image too big for the runtime's memory
 * is `E_TOO_LARGE`. The pixel budget was checked from the facts before the decoder runs.
 */
export type Decoder<Facts> = (request: DecodeRequest<Facts>) => Promise<DecodeResult>;

/** An encoder's input: a raster read a band of rows at a time. */
export interface RowSource extends Size {
  /**
   * `false` when every pixel is known to be opaque (the decoder saw no other), so an encoder need not
   * look; `true` when some source pixel was not, in which case an encoder that cares checks the rows.
   */
  mayHaveAlpha: boolean;
  /** Rows `y` to `y + count - 1` as RGBA8, back to back: a view valid until the next call. */
  rows(y: number, count: number): Uint8Array;
}

/**
 * An encoder: reads every row of `source` (in bands, in order, possibly more than once) and returns the
 * encoded file. It never keeps a copy of the whole raster beyond what its format needs.
 */
export type Encoder<Options> = (source: RowSource, options: Options) => Promise<Uint8Array>;
