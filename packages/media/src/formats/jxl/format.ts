// JPEG XL: recognised only so it can be refused by name; nothing glimpse ships decodes it, and no provider takes it.
import { MediaError } from '../../errors.js';
import { presetsTaking } from '../../presets/takers.js';
import { startsWithBytes } from '../byte-reader.js';
import type { RefusedFormat } from '../format.js';

const JXL_CODESTREAM = [0xff, 0x0a];
const JXL_CONTAINER = [0x00, 0x00, 0x00, 0x0c, 0x4a, 0x58, 0x4c, 0x20, 0x0d, 0x0a, 0x87, 0x0a];

export const jxl: RefusedFormat = {
  kind: 'refused',
  mediaType: 'image/jxl',
  label: 'JPEG XL',
  extensions: ['jxl'],
  matches: (bytes) => startsWithBytes(bytes, JXL_CODESTREAM) || startsWithBytes(bytes, JXL_CONTAINER),
  // No size is read: only the name is needed to refuse it.
  probe: (bytes) => ({ info: { mediaType: 'image/jxl', bytes: bytes.length, orientation: 1, frames: 1 } }),
  takenAsIsBy: presetsTaking('image/jxl'),
  refusal: (info) =>
    new MediaError(
      'E_UNSUPPORTED',
      `This is a JPEG XL image (${info.mediaType}), which glimpse does not decode and providers do not accept. Convert it to PNG or JPEG first.`,
      { mediaType: info.mediaType },
    ),
  docs: { decoder: '—', licence: '', output: '—', notes: 'recognised and refused (`E_UNSUPPORTED`)' },
};
