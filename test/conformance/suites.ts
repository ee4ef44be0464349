// Public conformance suites, all from Debian source packages pinned in wasm/sources.lock (fetched and
// unpacked by scripts/debian-source.sh). For each file: what it is expected to give, and where its
// reference pixels come from. Nothing here was written by glimpse's authors: the files and most
// references are the suites' own; the rest is sharp (libvips) decoding the same file.
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';

/** Reference pixels: the file decoded by sharp, another file the suite ships, or raw RGBA. */
export type Reference =
  | { kind: 'self' }
  | { kind: 'file'; path: string }
  | { kind: 'rgba'; path: string; width: number; height: number };

export interface SuiteFile {
  /** Path inside the unpacked tree. */
  path: string;
  /**
   * valid: must give an image whose pixels match the reference at its own size and at half size.
   * any: a corrupt, hostile or borderline file; must give a typed error or a sound output.
   */
  expect: 'valid' | 'any';
  reference?: Reference;
  /** Typed refusals that are the right answer for this valid file (a 12-bit JPEG may be E_UNSUPPORTED). */
  mayRefuse?: string[];
}

export interface Suite {
  name: string;
  /** Debian source package holding it. */
  package: string;
  /** Lowest PSNR (dB) accepted at the file's own size and at half size. */
  psnr: { own: number; half: number };
  files(tree: string): SuiteFile[];
}

function list(tree: string, directory: string, pattern: RegExp): string[] {
  try {
    return readdirSync(join(tree, directory))
      .filter((name) => pattern.test(name))
      .sort()
      .map((name) => join(directory, name));
  } catch {
    throw new Error(`conformance: ${directory} is missing from ${tree}`);
  }
}

/**
 * PSNR bounds, from a full run on Debian 12 (see docs/testing.md): the lowest value seen among passing files
 * minus a margin. Lossless sources at their own size go out as lossless PNG (or untouched), so anything under
 * 40 dB is a wrong pixel, not rounding; lossy sources differ by the IDCT/upsampling of two libjpeg builds.
 * Half size compares glimpse's resampler with sharp's Lanczos-3, so edges differ a little more.
 */
const LOSSLESS = { own: 40, half: 25 };
const LOSSY = { own: 30, half: 25 };

export const SUITES: readonly Suite[] = [
  {
    name: 'PngSuite (libpng contrib/pngsuite)',
    package: 'libpng1.6',
    psnr: LOSSLESS,
    files: (tree) =>
      [...list(tree, 'contrib/pngsuite', /\.png$/), ...list(tree, 'contrib/pngsuite/interlaced', /\.png$/)].map(
        (path) => ({ path, expect: 'valid', reference: { kind: 'self' } }),
      ),
  },
  {
    name: 'libpng contrib/testpngs',
    package: 'libpng1.6',
    psnr: LOSSLESS,
    files: (tree) => [
      ...list(tree, 'contrib/testpngs', /\.png$/).map(
        (path): SuiteFile => ({ path, expect: 'valid', reference: { kind: 'self' } }),
      ),
      ...list(tree, 'contrib/testpngs/crashers', /\.png$/).map((path): SuiteFile => ({ path, expect: 'any' })),
    ],
  },
  {
    name: 'PngSuite complete, with stb reference decodes (libstb tests/pngsuite)',
    package: 'libstb',
    psnr: LOSSLESS,
    files: (tree) => [
      ...list(tree, 'tests/pngsuite/primary', /\.png$/).map(
        (path): SuiteFile => ({
          path,
          expect: 'valid',
          reference: { kind: 'file', path: path.replace('/primary/', '/primary_check/') },
        }),
      ),
      ...list(tree, 'tests/pngsuite/16bit', /\.png$/).map(
        (path): SuiteFile => ({ path, expect: 'valid', reference: { kind: 'self' } }),
      ),
      ...list(tree, 'tests/pngsuite/unused', /\.png$/).map(
        (path): SuiteFile => ({ path, expect: 'valid', reference: { kind: 'self' } }),
      ),
      ...list(tree, 'tests/pngsuite/corrupt', /\.png$/).map((path): SuiteFile => ({ path, expect: 'any' })),
    ],
  },
  {
    name: 'libjpeg-turbo testimages',
    package: 'libjpeg-turbo',
    psnr: LOSSY,
    files: (tree) =>
      list(tree, 'testimages', /\.jpg$/).map((path) => ({
        path,
        expect: 'valid',
        // djpeg's own decode of testorig.jpg; the 12-bit file has no 8-bit reader to compare with.
        ...(basename(path) === 'testorig12.jpg' ? { mayRefuse: ['E_UNSUPPORTED'] } : { reference: { kind: 'self' } }),
      })),
  },
  {
    name: 'libwebp examples',
    package: 'libwebp',
    psnr: LOSSY,
    files: (tree) => [
      { path: 'examples/test.webp', expect: 'valid', reference: { kind: 'file', path: 'examples/test_ref.ppm' } },
      ...list(tree, 'webp_js', /\.webp$/).map(
        (path): SuiteFile => ({ path, expect: 'valid', reference: { kind: 'self' } }),
      ),
    ],
  },
  {
    name: 'Pillow test images: WebP, GIF, JPEG, PNG',
    package: 'pillow',
    psnr: LOSSY,
    files: (tree) => list(tree, 'Tests/images', /\.(webp|gif|jpe?g|png)$/i).map((path) => ({ path, expect: 'any' })),
  },
  {
    name: 'bmpsuite 2 (Pillow Tests/images/bmp: g good, q questionable, b bad)',
    package: 'pillow',
    psnr: LOSSLESS,
    files: (tree) => {
      const references = new Set(list(tree, 'Tests/images/bmp/html', /\.png$/).map((path) => basename(path)));
      const withReference = (path: string): SuiteFile => {
        const png = basename(path).replace(/\.bmp$/, '.png');
        return references.has(png)
          ? { path, expect: 'valid', reference: { kind: 'file', path: `Tests/images/bmp/html/${png}` } }
          : { path, expect: 'valid' };
      };
      return [
        ...list(tree, 'Tests/images/bmp/g', /\.bmp$/).map(withReference),
        ...list(tree, 'Tests/images/bmp/q', /\.bmp$/).map((path): SuiteFile => ({ path, expect: 'any' })),
        ...list(tree, 'Tests/images/bmp/b', /\.bmp$/).map((path): SuiteFile => ({ path, expect: 'any' })),
      ];
    },
  },
  {
    name: 'bmpsuite 1 and libnsbmp tests (netsurf libnsbmp/test)',
    package: 'netsurf',
    psnr: LOSSLESS,
    files: (tree) => {
      const references = new Set(list(tree, 'libnsbmp/test/bmpsuite/png', /\.png$/).map((path) => basename(path)));
      return [
        ...list(tree, 'libnsbmp/test/bmpsuite', /^g.*\.bmp$/).map((path): SuiteFile => {
          const png = basename(path)
            .slice(1)
            .replace(/\.bmp$/, '.png');
          return references.has(png)
            ? { path, expect: 'valid', reference: { kind: 'file', path: `libnsbmp/test/bmpsuite/png/${png}` } }
            : { path, expect: 'valid' };
        }),
        ...list(tree, 'libnsbmp/test/bmpsuite', /^[^g].*\.bmp$/).map((path): SuiteFile => ({ path, expect: 'any' })),
        ...list(tree, 'libnsbmp/test/bmp', /\.bmp$/).map((path): SuiteFile => ({ path, expect: 'any' })),
      ];
    },
  },
  {
    name: 'libnsbmp AFL corpora (netsurf libnsbmp/test/afl-bmp, ns-afl-bmp)',
    package: 'netsurf',
    psnr: LOSSLESS,
    files: (tree) =>
      [...list(tree, 'libnsbmp/test/afl-bmp', /./), ...list(tree, 'libnsbmp/test/ns-afl-bmp', /./)].map((path) => ({
        path,
        expect: 'any',
      })),
  },
  {
    name: 'GIF test suite with expected frames (gdk-pixbuf tests/test-images/gif-test-suite)',
    package: 'gdk-pixbuf',
    psnr: LOSSLESS,
    files: (tree) => list(tree, 'tests/test-images/gif-test-suite', /\.conf$/).map((conf) => gifSuiteFile(tree, conf)),
  },
  {
    name: 'libnsgif AFL corpus and tests (netsurf libnsgif/test)',
    package: 'netsurf',
    psnr: LOSSLESS,
    files: (tree) =>
      [...list(tree, 'libnsgif/test/data', /\.gif$/), ...list(tree, 'libnsgif/test/ns-afl-gif', /./)].map((path) => ({
        path,
        expect: 'any',
      })),
  },
  {
    name: 'gdk-pixbuf files its loaders must refuse (tests/test-images/fail, randomly-modified)',
    package: 'gdk-pixbuf',
    psnr: LOSSLESS,
    files: (tree) =>
      [
        ...list(tree, 'tests/test-images/fail', /\.(png|gif|bmp|jpe?g|ico|tiff?)$/),
        ...list(tree, 'tests/test-images/randomly-modified', /\.(png|gif|bmp|jpe?g|ico|tiff?)$/),
      ].map((path) => ({ path, expect: 'any' })),
  },
  {
    name: 'libsvgtiny tests and AFL corpus (netsurf libsvgtiny/test)',
    package: 'netsurf',
    psnr: LOSSY,
    files: (tree) =>
      [...list(tree, 'libsvgtiny/test/data', /\.svg$/), ...list(tree, 'libsvgtiny/test/ns-afl-svg', /./)].map(
        (path) => ({ path, expect: 'any' }),
      ),
  },
  {
    name: "pdf.js's test PDFs (pdf.js test/pdfs)",
    package: 'pdf.js',
    psnr: LOSSY,
    files: (tree) => list(tree, 'test/pdfs', /\.pdf$/i).map((path) => ({ path, expect: 'any' })),
  },
];

/** A gif-test-suite entry: the .conf names the input and the expected first frame as raw RGBA of the screen size. */
function gifSuiteFile(tree: string, conf: string): SuiteFile {
  const text = readFileSync(join(tree, conf), 'utf8');
  const field = (name: string) => new RegExp(`^${name} = (.*)$`, 'm').exec(text)?.[1]?.trim();
  const directory = conf.slice(0, conf.lastIndexOf('/'));
  const input = `${directory}/${field('input') ?? basename(conf).replace(/\.conf$/, '.gif')}`;
  const width = Number(field('width'));
  const height = Number(field('height'));
  const firstFrame = /^\[frame0\][\s\S]*?^pixels = (.*)$/m.exec(text)?.[1]?.trim();
  // A file the suite's decoder must reject has no frames; any typed answer is right then.
  if (!firstFrame || !(width > 0 && height > 0)) return { path: input, expect: 'any' };
  return {
    path: input,
    expect: 'valid',
    reference: { kind: 'rgba', path: `${directory}/${firstFrame}`, width, height },
  };
}
