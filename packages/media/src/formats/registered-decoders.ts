// Decoders that optional packages add to the core. HEVC (HEIC) is decoded by libde265, which is LGPL: it
// ships in @glimpse/heif, which calls `registerDecoder` when imported, so the core stays permissively
// licensed and a deployment that must not ship HEVC simply leaves that package out.
import type { MediaType, ProbeResult } from '../types.js';
import type { RowSink } from '../raster/contract.js';

/** What a registered decoder is asked to do: decode the stored pixels of a file the core probed. */
export interface DecodeRequest {
  bytes: Uint8Array;
  info: ProbeResult;
  /** The decompression-bomb budget; a decoder that learns of more pixels than the probe saw refuses them. */
  maxInputPixels: number;
  /**
   * Where the pixels go, before orientation (the core applies `info.orientation`): `start` once with
   * `info.width`×`info.height`, then every row top to bottom, a band at a time (the codec contract).
   */
  sink: RowSink;
}

/** What the decoder saw in the rows it delivered. */
export interface DecodedImage {
  /** Some pixel is not fully opaque. */
  hasAlpha: boolean;
  /** The file stores its pixels exactly, so the output stays lossless (PNG); absent means lossy (JPEG for a photo). */
  lossless?: boolean;
}

export interface ImageDecoder {
  /** Shown in messages: the package and its codec, e.g. "@glimpse/heif (libheif 1.15.1, libde265 1.0.11)". */
  name: string;
  decode(request: DecodeRequest): Promise<DecodedImage>;
}

const decoders = new Map<MediaType, ImageDecoder>();

/** Makes the core decode `mediaTypes` with `decoder` in every later `process` call. */
export function registerDecoder(mediaTypes: readonly MediaType[], decoder: ImageDecoder): void {
  for (const mediaType of mediaTypes) decoders.set(mediaType, decoder);
}

/** The decoder an optional package registered for `mediaType`, if any. */
export function registeredDecoder(mediaType: MediaType): ImageDecoder | undefined {
  return decoders.get(mediaType);
}
