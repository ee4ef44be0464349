// Which decoder reads each format. Every entry has the codec contract's shape (contract.ts): the format's
// probe result in, rows out into a sink.
import { MediaError } from '../errors.js';
import { writeRaster } from '../raster/raster-rows.js';
import type { BmpInfo, GifInfo, HeifInfo, IcoInfo, JpegInfo, PngInfo, TiffInfo, WebpInfo } from '../types.js';
import { decodeAvifRows } from '../formats/avif/decode.js';
import { bmpDecoder } from '../formats/bmp/decode.js';
import type { DecodeRequest, DecodeResult, Decoder } from '../raster/contract.js';
import { gifDecoder } from '../formats/gif/decode.js';
import { decodeIco } from '../formats/ico/decode.js';
import { jpegDecoder } from '../formats/jpeg/codec.js';
import { pngDecoder } from '../formats/png/codec.js';
import { registeredDecoder } from '../formats/registered-decoders.js';
import { tiffDecoder } from '../formats/tiff/decode.js';
import { webpDecoder } from '../formats/webp/codec.js';

/** Probe results of the formats glimpse decodes to pixels. */
export type DecodableInfo = PngInfo | JpegInfo | GifInfo | WebpInfo | BmpInfo | TiffInfo | IcoInfo | HeifInfo;

/** A decode request without the facts, which `decode` takes from the probe result. */
export type DecodeJob = Omit<DecodeRequest<unknown>, 'facts'>;

/**
 * Decodes with the decoder for `info`'s format. `maxInputPixels` is handed to decoders that optional
 * packages register (they may learn of more pixels than the header said). `undefined` when no decoder
 * is installed for the format (HEIC without @glimpse/heif): the caller says what to do.
 */
export function decoderFor(
  info: DecodableInfo,
  maxInputPixels: number,
): ((job: DecodeJob) => Promise<DecodeResult>) | undefined {
  switch (info.mediaType) {
    case 'image/png':
      return (job) => pngDecoder({ ...job, facts: info });
    case 'image/jpeg':
      return (job) => jpegDecoder({ ...job, facts: info });
    case 'image/gif':
      return (job) => gifDecoder({ ...job, facts: info });
    case 'image/webp':
      return (job) => webpDecoder({ ...job, facts: info });
    case 'image/bmp':
      return (job) => bmpDecoder({ ...job, facts: info });
    case 'image/tiff':
      return (job) => tiffDecoder({ ...job, facts: info });
    case 'image/x-icon':
      return (job) => icoDecoder({ ...job, facts: info });
    case 'image/avif':
      return (job) => avifDecoder({ ...job, facts: info, maxInputPixels });
    case 'image/heic':
    case 'image/heif': {
      const registered = registeredDecoder(info.mediaType);
      if (!registered) return undefined;
      // A package's decoder hands its rows on in bands, at the size the header declares.
      return async ({ bytes, sink }) => {
        const { hasAlpha, lossless = false } = await registered.decode({
          bytes,
          info,
          maxInputPixels,
          sink: {
            start(layout) {
              if (layout.width !== info.width || layout.height !== info.height) {
                throw new MediaError(
                  'E_CORRUPT',
                  `The ${info.mediaType} image decodes to ${layout.width}×${layout.height} but its header declares ${info.width}×${info.height}. The file is damaged: re-export it.`,
                );
              }
              sink.start(layout);
            },
            write: (pixels, rows) => sink.write(pixels, rows),
          },
        });
        return { hasAlpha, lossless };
      };
    }
    default: {
      const unreachable: never = info;
      throw new Error(`no decoder for ${String(unreachable)}`);
    }
  }
}

/** An icon's largest entry (at most 256×256 in practice; PNG or BMP, both lossless), decoded whole, then handed on in bands. */
const icoDecoder: Decoder<IcoInfo> = async ({ bytes, sink }) => {
  const { raster, hasAlpha } = await decodeIco(bytes);
  writeRaster(raster, hasAlpha, sink);
  return { hasAlpha, lossless: true };
};

/**
 * AVIF through dav1d (codecs/avif.ts): each AV1 frame decoded whole, its rows converted to RGBA and
 * handed on a band at a time, shrunk by a whole factor on the way where the image is at least twice `cover`.
 */
async function avifDecoder({
  bytes,
  cover,
  sink,
  maxInputPixels,
}: DecodeRequest<HeifInfo> & { maxInputPixels: number }): Promise<DecodeResult> {
  return decodeAvifRows({ bytes, cover, maxInputPixels, sink });
}
