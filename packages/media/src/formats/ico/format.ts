// ICO and CUR: the largest entry, decoded through the PNG or BMP decoder; no route takes it.
import { presetsTaking } from '../../presets/takers.js';
import type { IcoInfo } from '../../types.js';
import { startsWithBytes } from '../byte-reader.js';
import type { RasterFormat } from '../format.js';
import { icoDecoder } from './decode.js';
import { probeIco } from './probe.js';

export const ico: RasterFormat<IcoInfo> = {
  kind: 'raster',
  mediaType: 'image/x-icon',
  label: 'ICO',
  extensions: ['ico', 'cur'],
  // ICONDIR: reserved 0, type 1 (icon) or 2 (cursor), a non-zero image count; each 16-byte entry has reserved byte 0.
  matches: (bytes) =>
    (startsWithBytes(bytes, [0x00, 0x00, 0x01, 0x00]) || startsWithBytes(bytes, [0x00, 0x00, 0x02, 0x00])) &&
    bytes.length >= 22 &&
    (bytes[4]! | (bytes[5]! << 8)) > 0 &&
    bytes[9] === 0,
  probe: (bytes) => ({ info: probeIco(bytes) }),
  takenAsIsBy: presetsTaking('image/x-icon'),
  hasDecoder: () => true,
  decode: icoDecoder,
  docs: {
    decoder: 'TypeScript (entries through the PNG and BMP decoders)',
    licence: "glimpse's",
    output: 'PNG',
    notes: "the largest entry; BMP entries' AND mask becomes transparency",
  },
};
