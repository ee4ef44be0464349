// WebP: read and written by glimpse's libwebp builds; every hosted route takes it as it is (Ollama does not).
import { presetsTaking } from '../../presets/takers.js';
import type { WebpInfo } from '../../types.js';
import { asciiAt } from '../byte-reader.js';
import type { RasterFormat } from '../format.js';
import { encodeWebp, webpDecoder } from './codec.js';
import { embedWebpProfile, readWebpProfile, webpIccProfileBytes } from './icc.js';
import { checkWebpIntegrity, verifyWebpIntegrity } from './integrity.js';
import { probeWebp } from './probe.js';
import { webpWithoutMetadata } from './metadata.js';

export const webp: RasterFormat<WebpInfo> = {
  kind: 'raster',
  mediaType: 'image/webp',
  label: 'WebP',
  extensions: ['webp'],
  matches: (bytes) => asciiAt(bytes, 0, 4) === 'RIFF' && asciiAt(bytes, 8, 4) === 'WEBP',
  probe: (bytes) => ({ info: probeWebp(bytes), iccProfile: async () => readWebpProfile(bytes) }),
  takenAsIsBy: presetsTaking('image/webp'),
  hasDecoder: () => true,
  decode: webpDecoder,
  integrity: { check: checkWebpIntegrity, verify: verifyWebpIntegrity },
  writer: {
    encode: (source, { quality, lossless }) => encodeWebp(source, { quality, lossless }),
    embedIccProfile: embedWebpProfile,
    iccProfileBytes: webpIccProfileBytes,
  },
  withoutMetadata: webpWithoutMetadata,
  docs: {
    decoder: 'libwebp 1.2.4 (`webp-decoder.wasm`, `webp-encoder.wasm`)',
    licence: 'BSD-3-Clause',
    output: 'WebP where taken, else PNG if lossless (VP8L), JPEG if lossy',
  },
};
