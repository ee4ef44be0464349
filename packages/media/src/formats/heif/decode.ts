// HEIC and HEIF are decoded by a package that registers its decoder (@glimpse/heif: libheif + libde265,
// LGPL-3.0), so the core stays permissively licensed. Its rows go on in bands, at the size the header declares.
import { MediaError } from '../../errors.js';
import type { Decoder } from '../../raster/contract.js';
import type { HeifInfo } from '../../types.js';
import { registeredDecoder } from '../registered-decoders.js';

/** The registered decoder, as a codec-contract decoder that refuses rows of another size than the header's. */
export const registeredHeifDecoder: Decoder<HeifInfo> = async ({ bytes, facts: info, sink, maxInputPixels }) => {
  const registered = registeredDecoder(info.mediaType);
  if (!registered) throw new Error(`no decoder is registered for ${info.mediaType}`);
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
