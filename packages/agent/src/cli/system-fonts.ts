import { nodeFileSystem } from '../fs/node-file-system.js';
import { isFontFile, MAX_FONT_BYTES } from './read-fonts.js';

/**
 * One character of each script media names in `W_MISSING_GLYPHS` (packages/media/src/formats/svg/text-content.ts),
 * the one a font must have to be chosen for that script.
 */
const SAMPLE_CHARACTERS: Readonly<Record<string, number>> = {
  emoji: 0x1f600,
  'Han (Chinese characters)': 0x4e00,
  Hiragana: 0x3042,
  Katakana: 0x30a2,
  Hangul: 0xac00,
  Cyrillic: 0x0416,
  Greek: 0x03a9,
  Arabic: 0x0627,
  Hebrew: 0x05d0,
  Devanagari: 0x0915,
  Bengali: 0x0995,
  Tamil: 0x0b95,
  Thai: 0x0e01,
  Armenian: 0x0531,
  Georgian: 0x10d0,
  Ethiopic: 0x1200,
  Latin: 0x0041,
  symbols: 0x2605,
};

/** How long fontconfig may take to answer one query (a first run builds its cache). */
const FC_LIST_TIMEOUT_MS = 10_000;

/**
 * The font files fontconfig lists with the character `codePoint`, regular faces first; none without fc-list.
 * node:child_process is imported here, not at the top: it loads net, dgram and tty (about a millisecond), and
 * `glimpse process` needs it only for SVG text its fonts lack.
 */
async function fontFilesWith(codePoint: number): Promise<string[]> {
  const { execFile } = await import('node:child_process');
  return new Promise((resolve) => {
    execFile(
      'fc-list',
      ['--format', '%{file}\t%{style}\n', `:charset=${codePoint.toString(16)}`],
      { timeout: FC_LIST_TIMEOUT_MS, maxBuffer: 4 * 2 ** 20 },
      (error, stdout) => {
        if (error) return resolve([]); // no fontconfig (or it failed): no system fonts, as documented
        const faces = stdout
          .split('\n')
          .filter((line) => line !== '')
          .map((line) => line.split('\t') as [string, string?])
          .filter(([file]) => /\.(ttf|otf|ttc)$/i.test(file));
        const regular = (style = '') => (/\b(regular|book|normal)\b/i.test(style) ? 0 : 1);
        faces.sort((a, b) => regular(a[1]) - regular(b[1]) || a[0].localeCompare(b[0]));
        resolve([...new Set(faces.map(([file]) => file))]);
      },
    );
  });
}

/** Each font file read once per process (thread): a CJK face is 10–30 MB, so never re-read per call. */
const fontBytes = new Map<string, Promise<Uint8Array | undefined>>();
/** The file chosen for each script. */
const fontFileByScript = new Map<string, Promise<string | undefined>>();

function readFont(file: string): Promise<Uint8Array | undefined> {
  let bytes = fontBytes.get(file);
  if (bytes === undefined) {
    bytes = nodeFileSystem.readBytes(file, { maxBytes: MAX_FONT_BYTES }).then(
      (read) => (isFontFile(read) ? read : undefined),
      () => undefined,
    );
    fontBytes.set(file, bytes);
  }
  return bytes;
}

async function firstReadableFont(files: readonly string[]): Promise<string | undefined> {
  for (const file of files) if ((await readFont(file)) !== undefined) return file;
  return undefined;
}

/**
 * The system's fonts for the scripts an SVG's text lacked (the file tools' `fallbackFonts`): for each script, the
 * first regular face fontconfig (`fc-list`) lists with a character of it. Where fc-list is missing (macOS without
 * Homebrew's fontconfig, Windows, a slim container) there are none, and `--font FILE` is the way to add fonts.
 */
export async function systemFontsFor(scripts: readonly string[]): Promise<Uint8Array[]> {
  const files = await Promise.all(
    scripts.flatMap((script) => {
      const codePoint = SAMPLE_CHARACTERS[script];
      if (codePoint === undefined) return [];
      let file = fontFileByScript.get(script);
      if (file === undefined) {
        file = fontFilesWith(codePoint).then(firstReadableFont);
        fontFileByScript.set(script, file);
      }
      return [file];
    }),
  );
  const chosen = [...new Set(files.filter((file) => file !== undefined))];
  const fonts = await Promise.all(chosen.map(readFont));
  return fonts.filter((font) => font !== undefined);
}
