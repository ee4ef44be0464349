import type { WorkingSize } from './presets/working-size.js';

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

/** Image types that at least one provider accepts as-is (HEIC and HEIF: Gemini only). */
export type SendableImageType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp' | 'image/heic' | 'image/heif';

/** The limits presets `process` fits to (`PRESETS` holds each one's figures). */
export type PresetName = 'portable' | 'anthropic' | 'openai' | 'gemini' | 'bedrock' | 'ollama';

/** EXIF orientation tag values: 1 is upright, 2–8 mirror and/or rotate. */
export type Orientation = 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8;

/** An 8-bit RGBA pixel buffer. `data` owns its whole ArrayBuffer (WASM glue reads `.buffer`, a view would be wrong). */
export interface Raster {
  data: Uint8Array;
  width: number;
  height: number;
}

/**
 * Header facts, read without decoding pixels: one type per format, told apart by `mediaType`, so what
 * probe learnt is passed on and nothing downstream detects the type or reads the header again. Width
 * and height are as stored, before orientation. Every result has the fields of `ProbeFacts`.
 */
export type ProbeResult =
  | PngInfo
  | JpegInfo
  | GifInfo
  | WebpInfo
  | BmpInfo
  | TiffInfo
  | IcoInfo
  | HeifInfo
  | SvgInfo
  | PdfInfo
  | JxlInfo;

/** What every probe result says; formats narrow it (a PNG always has a size, a JPEG never alpha). */
export interface ProbeFacts {
  mediaType: MediaType;
  bytes: number;
  width?: number;
  height?: number;
  /** EXIF orientation (JPEG, PNG eXIf, WebP EXIF, TIFF; HEIF's irot/imir as their EXIF equivalent); 1 when absent. */
  orientation: Orientation;
  /** Frames in an animation; 1 for stills. */
  frames: number;
  /** Whether some pixel may be less than opaque, as the header says (an alpha channel, tRNS, a transparent index). */
  hasAlpha?: boolean;
}

export interface PngInfo extends ProbeFacts {
  mediaType: 'image/png';
  width: number;
  height: number;
  hasAlpha: boolean;
  bitDepth: number;
  /** Adam7: the decoder must hold every pass of the image (4 bytes per pixel) before its first row is final. */
  interlaced: boolean;
}

export interface JpegInfo extends ProbeFacts {
  mediaType: 'image/jpeg';
  width: number;
  height: number;
  hasAlpha: false;
  bitDepth: number;
  /** 1 gray, 3 YCbCr/RGB, 4 CMYK/YCCK (decoded to RGB: never sent as it is). */
  components: number;
  /** Progressive: the decoder holds every DCT coefficient (2 bytes per sample) until the last scan. */
  progressive: boolean;
  /**
   * The data ends with its end-of-image marker (a few bytes of padding allowed). A file cut short reads
   * fine up to its scan data but a provider may reject it, so it is decoded (libjpeg recovers what is
   * there) instead of passed through.
   */
  complete: boolean;
}

export interface GifInfo extends ProbeFacts {
  mediaType: 'image/gif';
  width: number;
  height: number;
  hasAlpha: boolean;
  bitDepth?: number;
}

export interface WebpInfo extends ProbeFacts {
  mediaType: 'image/webp';
  width: number;
  height: number;
  hasAlpha: boolean;
  bitDepth: number;
  /** A lossless (VP8L) still, which stays lossless when re-encoded; an animation's first frame is not inspected. */
  lossless: boolean;
}

export interface BmpInfo extends ProbeFacts {
  mediaType: 'image/bmp';
  width: number;
  height: number;
  hasAlpha: boolean;
  bitDepth: number;
}

export interface TiffInfo extends ProbeFacts {
  mediaType: 'image/tiff';
  width: number;
  height: number;
  hasAlpha: boolean;
  bitDepth: number;
  /** Pages (IFDs); the first is decoded. */
  pages: number;
  /** Not JPEG-compressed: the pixels are exact, and stay lossless when re-encoded. */
  lossless: boolean;
}

export interface IcoInfo extends ProbeFacts {
  mediaType: 'image/x-icon';
  /** The largest entry's size, the one shown. */
  width: number;
  height: number;
  bitDepth: number;
  lossless: true;
}

/**
 * HEIC/HEIF/AVIF: the primary image as shown before turning (its clean aperture, or the whole grid). Whether
 * the coding is lossless is in the coded frames, not the header: the decoder says it (DecodeResult.lossless).
 */
export interface HeifInfo extends ProbeFacts {
  mediaType: 'image/heic' | 'image/heif' | 'image/avif';
  width: number;
  height: number;
  hasAlpha: boolean;
  bitDepth?: number;
}

export interface SvgInfo extends ProbeFacts {
  mediaType: 'image/svg+xml';
}

export interface PdfInfo extends ProbeFacts {
  mediaType: 'application/pdf';
  pages?: number;
  encrypted?: boolean;
  /** First page size in points. */
  pageWidth?: number;
  pageHeight?: number;
}

/** JPEG XL is named (no size is read) so it can be refused clearly. */
export interface JxlInfo extends ProbeFacts {
  mediaType: 'image/jxl';
}

/** A rectangle of an image in whole pixels, from its top-left corner. */
export interface Region {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Options of `process`. Explicit limits override the preset's. */
export interface ProcessOptions {
  /** The limits preset: `portable` (default) is safe on every hosted route (Ollama: `ollama`); `anthropic`, `openai`, … fit one provider. */
  preset?: PresetName;
  /** @deprecated The old name of `preset`, still accepted. */
  provider?: PresetName;
  /** Longest side in pixels. */
  maxEdge?: number;
  /**
   * The size the receiving model works at, from the agent's capability registry (a Claude high-resolution
   * model: `{ maxEdge: 2576, patches: { size: 28, max: 4784 } }`): it replaces the preset's longest side, short
   * side and patch budget whole, so what is sent is what the model sees (no second downscale on its server).
   * An explicit `maxEdge` still wins over its edge.
   */
  workingSize?: WorkingSize;
  /** Largest output in raw bytes. */
  maxBytes?: number;
  /** Decompression-bomb guard: inputs with more pixels are refused before decoding. Default 100 MP. */
  maxInputPixels?: number;
  /** PDFs: largest file in bytes and most pages (of what is sent: with `pages`, the PDF of those pages). */
  maxPdfBytes?: number;
  maxPdfPages?: number;
  /**
   * PDFs only: the pages to send, numbered from 1, in the order given, each at most once. `process` sends a
   * PDF of those pages alone, checked as a whole PDF is; a page past the end is `E_INVALID_OPTIONS` (its
   * details carry `pages` and `pageCount`), and so is `pages` for anything but a PDF. The result's `pages`
   * counts the pages sent, `original.pages` the file's.
   */
  pages?: readonly number[];
  /**
   * Time budget in milliseconds; over it, `E_TIMEOUT`. Checked between stages (probe, decode, resize, each
   * encode attempt): a single codec call runs to its end, and is kept short by the refusals from cheap facts.
   * In `processRequest` it also bounds reading the body (then counts again once the body is in).
   */
  timeoutMs?: number;
  /** Extra fonts (TTF/OTF/TTC bytes) for SVG text, tried before the bundled DejaVu Sans subset. */
  fonts?: readonly Uint8Array[];
  /**
   * Raster images only: send only this part, in the upright original's pixels (EXIF orientation applied),
   * cut from the full-resolution decode and then fitted to the limits, so a model can read what a whole-image
   * fit shrinks away. Outside the image, empty, or not whole pixels: `E_INVALID_OPTIONS` (its details name the
   * image's size). The result's `region` repeats it, for the note that maps coordinates back. PDF pages take a
   * region through `renderPdfPage`.
   */
  region?: Region;
  /**
   * Send a JPEG, PNG, WebP, GIF or HEIC/HEIF that goes as it is with its metadata: Exif (GPS position,
   * camera, dates), XMP, IPTC, text chunks and comments. Default false: they are cut out whole (HEIF's
   * blanked in place; no pixel is re-encoded, the colour profile stays) and the step `metadata-removed` says
   * so. A re-encoded image never carries them.
   */
  keepMetadata?: boolean;
}

/** What `process` did, in order; agents turn these into notes for the model. */
export type ProcessStep =
  | 'oriented' // EXIF orientation applied
  | 'cropped' // only `region` was sent
  | 'first-frame' // an animation was reduced to its first frame
  | 'first-page' // a multi-page file (TIFF) was reduced to its first page; `original.pages` says how many
  | 'rasterized' // an SVG was rendered to PNG
  | 'converted' // the format changed (BMP→PNG, GIF→PNG, …)
  | 'resized' // scaled to fit maxEdge
  | 'quality-reduced' // lossy quality stepped down to fit maxBytes
  | 'scaled-for-bytes' // scaled below maxEdge to fit maxBytes
  | 'recovered' // the file ends early; what it holds was decoded (see the W_TRUNCATED warning)
  | 'metadata-removed'; // sent as it is but for its Exif, XMP, IPTC, text or comments, cut out (keepMetadata: false)

/**
 * Something the output does not show as the input meant it, that the caller or the model should know.
 * The message is written to be shown to a model as it is.
 */
export type ProcessWarning =
  | {
      code: 'W_TRUNCATED';
      message: string /** Share of the stored rows that hold real pixels (0–1). */;
      recoveredFraction: number /** Where the missing part is in the output. */;
      missingSide: 'top' | 'bottom' | 'left' | 'right' | 'none';
    }
  | {
      code: 'W_MISSING_GLYPHS';
      message: string /** Unicode scripts (or "emoji") no font could draw. */;
      scripts: string[];
    }
  | {
      code: 'W_EXTERNAL_IMAGES';
      message: string /** The file paths and URLs the SVG draws images from (the first 20), which are never fetched. */;
      references: string[];
    }
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
  /** The part of the original sent (the `region` option), in its upright pixels; absent when the whole was sent. */
  region?: Region;
}
