// The passthrough checks against the public suites: every valid PNG, JPEG and WebP of them must pass
// `process`'s integrity checks (the cheap ones and the full read by libpng, libjpeg and libwebp). A valid
// file may still be re-encoded for other reasons (resized, oriented, CMYK), but never repaired or refused:
// a check that rejects a file the suite's authors call valid is a false alarm.
// (That nothing the strict oracle refuses passes through is conformance.test.ts's check of every output.)
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMediaError, process as processMedia } from '@glimpse/media';
import { describe, expect, it } from 'vitest';
import { SUITES } from './suites.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const CHECKED = /\.(png|jpe?g|webp)$/i;
/** The suites that vouch for valid PNG, JPEG or WebP files (Pillow's images are `any`: not vouched valid). */
const IMAGE_SUITE = /^(PngSuite|libpng|libjpeg-turbo|libwebp)\b/;

function tree(pkg: string): string {
  return execFileSync('bash', [join(root, 'scripts/debian-source.sh'), pkg], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  }).trim();
}

describe('passthrough checks on the valid files of the public suites', () => {
  for (const suite of SUITES) {
    it(suite.name, async () => {
      const base = tree(suite.package);
      const files = suite.files(base).filter((file) => file.expect === 'valid' && CHECKED.test(file.path));
      const falseAlarms: string[] = [];
      let untouched = 0;
      for (const file of files) {
        const bytes = new Uint8Array(readFileSync(join(base, file.path)));
        try {
          const result = await processMedia(bytes);
          if (!result.reencoded) untouched++; // as it is, or with its metadata cut out (keepMetadata: false)
          const repaired = result.warnings.find((warning) => warning.code === 'W_REPAIRED');
          if (repaired) falseAlarms.push(`${file.path}: ${repaired.message}`);
        } catch (error) {
          if (!isMediaError(error) || error.code === 'E_CORRUPT' || !file.mayRefuse?.includes(error.code))
            falseAlarms.push(`${file.path}: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
      expect(falseAlarms).toEqual([]);
      // Asserted on every suite, so neither can pass unchecked: the libpng, libjpeg-turbo and libwebp suites have
      // valid files of those formats (and the others none), and small valid files mostly go out untouched: a suite
      // with checked files may not have had them all re-encoded.
      expect({ checkedFiles: files.length > 0 }).toEqual({ checkedFiles: IMAGE_SUITE.test(suite.name) });
      expect({ someUntouched: untouched > 0 }).toEqual({ someUntouched: files.length > 0 });
    });
  }
});
