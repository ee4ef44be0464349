// GIF: the first frame decoded in TypeScript; Anthropic, OpenAI and Bedrock take a still GIF as it is.
import { presetsTaking } from '../../presets/takers.js';
import type { GifInfo } from '../../types.js';
import { asciiAt } from '../byte-reader.js';
import type { RasterFormat } from '../format.js';
import { gifDecoder } from './decode.js';
import { checkGifImageData, checkGifIntegrity } from './integrity.js';
import { probeGif } from './probe.js';
import { gifWithoutMetadata } from './metadata.js';

export const gif: RasterFormat<GifInfo> = {
  kind: 'raster',
  mediaType: 'image/gif',
  label: 'GIF',
  extensions: ['gif'],
  matches: (bytes) => ['GIF87a', 'GIF89a'].includes(asciiAt(bytes, 0, 6)),
  probe: (bytes) => ({ info: probeGif(bytes) }),
  takenAsIsBy: presetsTaking('image/gif'),
  hasDecoder: () => true,
  decode: gifDecoder,
  // giflib decodes every image's LZW data (codes defined when used, one for every pixel): so does the full read.
  integrity: { check: checkGifIntegrity, verify: async (bytes) => checkGifImageData(bytes) },
  withoutMetadata: gifWithoutMetadata,
  docs: { decoder: 'TypeScript', licence: "glimpse's", output: 'PNG', notes: 'first frame' },
};
