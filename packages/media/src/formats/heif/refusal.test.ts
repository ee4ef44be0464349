// Without @glimpse/heif, a HEIC cannot be converted: the refusal says which package decodes it and what
// else to do. (Test files run in their own module graph, so no decoder is registered here.)
import { describe, expect, it } from 'vitest';
import { heifEnc } from '../../../../../test/fixtures/heif-writer.js';
import { naturalPixels } from '../../../../../test/fixtures/pixels.js';
import { MediaError } from '../../errors.js';
import { process } from '../../process.js';
import { failsWith } from '../../../../../test/support/typed-errors.js';

describe('HEIC without a registered decoder', () => {
  it('is refused with E_UNSUPPORTED, naming @glimpse/heif and the JPEG route', async () => {
    const heic = await heifEnc(naturalPixels(64, 48));
    const error = await failsWith(process(heic), MediaError, 'E_UNSUPPORTED');
    expect(error.message).toMatch(
      /This is a HEIC image \(image\/heic\)\..*install @glimpse\/heif \(npm install @glimpse\/heif\).*the glimpse CLI and MCP server load it.*import it once.*convert the file to JPEG/,
    );
  });
});
