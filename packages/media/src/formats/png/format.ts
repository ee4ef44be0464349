// PNG: read and written by glimpse's libpng + zlib build; every route takes it as it is.
import { presetsTaking } from '../../presets/takers.js';
import type { PngInfo } from '../../types.js';
import type { RasterFormat } from '../format.js';
import { hasPngSignature } from './chunks.js';
import { encodePng, encodePngWithin, pngDecoder } from './codec.js';
import { embedPngProfile, pngIccProfileBytes, readPngProfile } from './icc.js';
import { checkPngIntegrity, verifyPngIntegrity } from './integrity.js';
import { probePng } from './probe.js';
import { pngWithoutMetadata } from './metadata.js';

export const png: RasterFormat<PngInfo> = {
  kind: 'raster',
  mediaType: 'image/png',
  label: 'PNG',
  extensions: ['png'],
  matches: hasPngSignature,
  probe: (bytes) => ({ info: probePng(bytes), iccProfile: () => readPngProfile(bytes) }),
  takenAsIsBy: presetsTaking('image/png'),
  hasDecoder: () => true,
  decode: pngDecoder,
  integrity: { check: checkPngIntegrity, verify: verifyPngIntegrity },
  writer: {
    encode: (source) => encodePng(source, {}),
    encodeWithin: (source, _encoding, maxBytes) => encodePngWithin(source, maxBytes),
    embedIccProfile: embedPngProfile,
    iccProfileBytes: pngIccProfileBytes,
  },
  withoutMetadata: pngWithoutMetadata,
  docs: { decoder: 'libpng 1.6.39 + zlib (`png.wasm`)', licence: 'libpng, zlib', output: 'PNG' },
};
