/** Every media type the core can name. Only some can be sent to providers; the rest exist so errors can name them. */
export type MediaType =
  | 'image/png'
  | 'image/jpeg'
  | 'image/gif'
  | 'image/webp'
  | 'image/bmp'
  | 'image/svg+xml'
  | 'application/pdf'
  | 'image/tiff'
  | 'image/heic'
  | 'image/heif'
  | 'image/avif'
  | 'image/jxl'
  | 'image/x-icon';

/** Image types that at least one provider accepts as-is. */
export type SendableImageType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';

/** EXIF orientation tag values: 1 is upright, 2–8 mirror and/or rotate. */
export type Orientation = 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8;

/** An 8-bit RGBA pixel buffer. `data` owns its whole ArrayBuffer (WASM glue reads `.buffer`, a view would be wrong). */
export interface Raster {
  data: Uint8Array;
  width: number;
  height: number;
}

/** Header facts, read without decoding pixels. Width and height are as stored, before orientation. */
export interface ProbeResult {
  mediaType: MediaType;
  bytes: number;
  width?: number;
  height?: number;
  /** EXIF orientation (JPEG, PNG eXIf, WebP EXIF, TIFF; HEIF's irot/imir as their EXIF equivalent); 1 when absent. */
  orientation: Orientation;
  /** Frames in an animation; 1 for stills. */
  frames: number;
  hasAlpha?: boolean;
  bitDepth?: number;
  /** JPEG only: 1 gray, 3 YCbCr/RGB, 4 CMYK/YCCK. */
  components?: number;
  progressive?: boolean;
  interlaced?: boolean;
  /** Whether the stored pixels are exact (PNG, GIF, BMP, lossless WebP); decides whether re-encoding may be lossy. */
  lossless?: boolean;
  /** PDF pages; TIFF pages (IFDs). */
  pages?: number;
  encrypted?: boolean;
  /** PDF only: first page size in points. */
  pageWidth?: number;
  pageHeight?: number;
}

/** Options of `process`. Explicit limits override the preset's. */
export interface ProcessOptions {
  /** The limits preset: `portable` (default) is safe on every route; `anthropic`, `openai`, … fit one provider. */
  preset?: import('./presets.js').PresetName;
  /** @deprecated The old name of `preset`, still accepted. */
  provider?: import('./presets.js').PresetName;
  /** Longest side in pixels. */
  maxEdge?: number;
  /** Largest output in raw bytes. */
  maxBytes?: number;
  /** Decompression-bomb guard: inputs with more pixels are refused before decoding. Default 100 MP. */
  maxInputPixels?: number;
  /** PDFs: largest file in bytes and most pages. */
  maxPdfBytes?: number;
  maxPdfPages?: number;
  /**
   * Time budget in milliseconds; over it, `E_TIMEOUT`. Checked between stages (probe, decode, resize, each
   * encode attempt): a single codec call runs to its end, and is kept short by the refusals from cheap facts.
   */
  timeoutMs?: number;
  /** Extra fonts (TTF/OTF/TTC bytes) for SVG text, tried before the bundled DejaVu Sans subset. */
  fonts?: readonly Uint8Array[];
}

/** What `process` did, in order; agents turn these into notes for the model. */
export type ProcessStep =
  | 'oriented' // EXIF orientation applied
  | 'first-frame' // an animation was reduced to its first frame
  | 'first-page' // a multi-page file (TIFF) was reduced to its first page; `original.pages` says how many
  | 'rasterized' // an SVG was rendered to PNG
  | 'converted' // the format changed (BMP→PNG, GIF→PNG, …)
  | 'resized' // scaled to fit maxEdge
  | 'quality-reduced' // lossy quality stepped down to fit maxBytes
  | 'scaled-for-bytes' // scaled below maxEdge to fit maxBytes
  | 'recovered'; // the file ends early; what it holds was decoded (see the W_TRUNCATED warning)

/**
 * Something the output does not show as the input meant it, that the caller or the model should know.
 * The message is written to be shown to a model as it is.
 */
export type ProcessWarning =
  | { code: 'W_TRUNCATED'; message: string; /** Share of the stored rows that hold real pixels (0–1). */ recoveredFraction: number; /** Where the missing part is in the output. */ missingSide: 'top' | 'bottom' | 'left' | 'right' | 'none' }
  | { code: 'W_MISSING_GLYPHS'; message: string; /** Unicode scripts (or "emoji") no font could draw. */ scripts: string[] }
  | { code: 'W_REPAIRED'; message: string };

export interface ProcessResult {
  /** The bytes to send: the input itself when nothing had to change. */
  data: Uint8Array;
  mediaType: SendableImageType | 'application/pdf';
  /** Pixels for images; for PDFs the first page in points. */
  width: number;
  height: number;
  bytes: number;
  /** PDFs only. */
  pages?: number;
  original: {
    mediaType: MediaType;
    width: number;
    height: number;
    bytes: number;
    orientation: Orientation;
    frames: number;
    pages?: number;
  };
  /** Pixel dimensions changed (beyond a 90° turn). */
  resized: boolean;
  /** The bytes are not the input's. */
  reencoded: boolean;
  steps: ProcessStep[];
  /** What the output lacks or changed beyond the steps; empty when nothing is amiss. */
  warnings: ProcessWarning[];
}
