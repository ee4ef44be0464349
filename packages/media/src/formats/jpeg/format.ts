// JPEG: read and written by glimpse's libjpeg-turbo build; every route takes it as it is, except CMYK
// (many viewers miscolour it) and 12-bit samples (nothing a provider runs decodes them).
import { MediaError } from '../../errors.js';
import { presetsTaking } from '../../presets/takers.js';
import type { JpegInfo } from '../../types.js';
import { startsWithBytes } from '../byte-reader.js';
import type { RasterFormat } from '../format.js';
import { encodeJpeg, jpegDecoder } from './codec.js';
import { embedJpegProfile, jpegIccProfileBytes, readJpegProfile } from './icc.js';
import { checkJpegIntegrity, verifyJpegIntegrity } from './integrity.js';
import { probeJpeg } from './probe.js';
import { jpegWithoutMetadata } from './metadata.js';

export const jpeg: RasterFormat<JpegInfo> = {
  kind: 'raster',
  mediaType: 'image/jpeg',
  label: 'JPEG',
  extensions: ['jpg', 'jpeg'],
  matches: (bytes) => startsWithBytes(bytes, [0xff, 0xd8, 0xff]),
  probe: (bytes) => ({ info: probeJpeg(bytes), iccProfile: async () => readJpegProfile(bytes) }),
  takenAsIsBy: presetsTaking('image/jpeg'),
  hasDecoder: () => true,
  decode: jpegDecoder,
  integrity: { check: checkJpegIntegrity, verify: verifyJpegIntegrity },
  writer: {
    encode: (source, { quality }) => encodeJpeg(source, { quality }),
    embedIccProfile: embedJpegProfile,
    iccProfileBytes: jpegIccProfileBytes,
  },
  // CMYK and YCCK are valid, but many decoders show them with wrong colours: always converted to RGB.
  mustConvert: (info) => info.components === 4,
  // Browsers and providers decode 8-bit JPEG only; libjpeg's 12-bit mode is a separate build glimpse does not ship.
  refusal: (info) =>
    info.bitDepth === 8
      ? undefined
      : new MediaError(
          'E_UNSUPPORTED',
          `This JPEG stores ${info.bitDepth}-bit samples, which browsers and model providers do not decode, and glimpse does not either. Convert it to an 8-bit JPEG or a PNG first (for example \`convert in.jpg -depth 8 out.png\` with ImageMagick).`,
          { format: 'JPEG', bitDepth: info.bitDepth },
        ),
  withoutMetadata: jpegWithoutMetadata,
  docs: {
    decoder: 'libjpeg-turbo 2.1.5 (`jpeg.wasm`)',
    licence: 'IJG, BSD-3-Clause',
    output: 'JPEG',
    notes: 'DCT-domain shrink on load',
  },
};
