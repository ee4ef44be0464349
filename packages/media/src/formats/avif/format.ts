// AVIF: the HEIF container read in TypeScript, its AV1 pictures decoded by glimpse's dav1d build; no route
// takes it, so it is always converted.
import { presetsTaking } from '../../presets/takers.js';
import type { HeifInfo } from '../../types.js';
import type { RasterFormat } from '../format.js';
import { isoBmffImageType } from '../heif/brands.js';
import { probeIsoBmff } from '../heif/probe.js';
import { decodeAvifRows } from './decode.js';
import { regularAvif } from './mini.js';

export const avif: RasterFormat<HeifInfo> = {
  kind: 'raster',
  mediaType: 'image/avif',
  label: 'AVIF',
  extensions: ['avif'],
  matches: (bytes) => isoBmffImageType(bytes) === 'image/avif',
  // The compact `mini` form is read as the regular file it stands for (mini.ts).
  probe: (bytes) => {
    const probed = probeIsoBmff('image/avif', 'AVIF', regularAvif(bytes));
    return { ...probed, info: { ...probed.info, bytes: bytes.length } };
  },
  takenAsIsBy: presetsTaking('image/avif'),
  hasDecoder: () => true,
  // Each AV1 frame decoded whole, its rows converted to RGBA and handed on a band at a time, shrunk by a
  // whole factor on the way where the image is at least twice the size it is decoded for.
  decode: ({ bytes, cover, sink, maxInputPixels }) => decodeAvifRows({ bytes, cover, maxInputPixels, sink }),
  docs: {
    decoder: 'dav1d 1.0.0 (`avif.wasm`); the HEIF container read in TypeScript',
    licence: 'BSD-2-Clause',
    output: 'JPEG; PNG with alpha or if lossless',
    notes:
      "primary image (an animation's still first frame; one with no still image is refused), of the compact `mini` form (AVIF 1.2) too, its gain map left out; grids a row of tiles at a time; alpha (straight or premultiplied); 8/10/12-bit, 4:0:0–4:4:4, colour matrix and range from `nclx` (else the AV1 header) brought to 8-bit RGB; irot/imir applied, clap cropped; shrunk by a whole factor on the way when much larger than the target",
  },
};
