// HEIC and HEIF: the HEIF container read in TypeScript, the HEVC pictures decoded by a registered decoder
// (@glimpse/heif); Gemini takes both as they are. Every reader applies irot/imir, so a turned file may go.
import { presetsTaking } from '../../presets/takers.js';
import type { HeifInfo } from '../../types.js';
import type { RasterFormat } from '../format.js';
import { registeredDecoder } from '../registered-decoders.js';
import { isoBmffImageType } from './brands.js';
import { registeredHeifDecoder } from './decode.js';
import { checkHeifIntegrity, verifyHeifIntegrity } from './integrity.js';
import { heifWithoutMetadata } from './metadata.js';
import { probeIsoBmff } from './probe.js';

/** The record of an HEVC-coded HEIF type: `mediaType` and the name messages give it. */
function hevcFormat(mediaType: 'image/heic' | 'image/heif', label: 'HEIC' | 'HEIF'): RasterFormat<HeifInfo> {
  return {
    kind: 'raster',
    mediaType,
    label,
    extensions: [label.toLowerCase()],
    matches: (bytes) => isoBmffImageType(bytes) === mediaType,
    probe: (bytes) => probeIsoBmff(mediaType, label, bytes),
    takenAsIsBy: presetsTaking(mediaType),
    hasDecoder: () => registeredDecoder(mediaType) !== undefined,
    decode: registeredHeifDecoder,
    decoderPackage: { name: '@glimpse/heif', adds: 'the HEVC decoder (libheif + libde265, LGPL-3.0)' },
    integrity: {
      check: (bytes) => checkHeifIntegrity(bytes, label),
      verify: (bytes) => verifyHeifIntegrity(bytes, mediaType, label),
    },
    orientedByReaders: true,
    withoutMetadata: (bytes) => heifWithoutMetadata(bytes, label),
    docs: {
      decoder: 'libheif 1.15.1 + libde265 1.0.11 (`heif.wasm`) in the optional **@glimpse/heif**',
      licence: '**LGPL-3.0**',
      output: 'JPEG (PNG with alpha)',
      notes:
        "`import '@glimpse/heif'` once; primary image only; grids decoded a row of tiles at a time; irot/imir applied, clap cropped; 10-bit brought to 8; the `gemini` preset passes one within its limits through without the package",
    },
  };
}

export const heic = hevcFormat('image/heic', 'HEIC');
export const heif = hevcFormat('image/heif', 'HEIF');
