import { FileError, isFileError } from '../fs/file-error.js';
import { nodeFileSystem } from '../fs/node-file-system.js';
import { UsageError } from './command.js';
import { resolveInputPath } from './read-input.js';

/** A font file is read whole; a CJK collection is 20–30 MB, so the cap is well above that. */
export const MAX_FONT_BYTES = 64 * 2 ** 20;

/** The first four bytes of the font files resvg reads: TrueType (0001 0000, 'true'), OpenType CFF ('OTTO'), collections ('ttcf'). */
const FONT_SIGNATURES = ['\x00\x01\x00\x00', 'true', 'OTTO', 'ttcf'];

/** Whether `bytes` start like a font file resvg reads. */
export function isFontFile(bytes: Uint8Array): boolean {
  return FONT_SIGNATURES.includes(String.fromCharCode(...bytes.subarray(0, 4)));
}

/** The `--font FILE` files of a command, read and checked (`glimpse process`, `glimpse mcp`). */
export async function readFonts(paths: readonly string[]): Promise<Uint8Array[]> {
  const fonts: Uint8Array[] = [];
  for (const path of paths) {
    const font = await nodeFileSystem
      .readBytes(await resolveInputPath(path), { maxBytes: MAX_FONT_BYTES })
      .catch((error: unknown) => {
        // The read cap's own hint names --max-file-bytes, which does not apply to fonts: say the font cap.
        if (!isFileError(error) || error.code !== 'E_FILE_TOO_LARGE') throw error;
        throw new FileError(
          'E_FILE_TOO_LARGE',
          `--font ${path} is over ${MAX_FONT_BYTES} bytes (64 MiB), the most a font file may be; a CJK collection is 20–30 MB. Give a font file of one face or collection under that size.`,
          { ...error.details, maxBytes: MAX_FONT_BYTES },
        );
      });
    if (!isFontFile(font))
      throw new UsageError(`--font ${path} is not a TTF, OTF or TTC font file (WOFF and WOFF2 are not read)`);
    fonts.push(font);
  }
  return fonts;
}
