// SVG adapter: resvg (Rust, WASM) rasterises; text uses the bundled DejaVu Sans subset (WASM has no system fonts).
import { initWasm, Resvg } from '@resvg/resvg-wasm';
import { isMediaError, MediaError } from '../../errors.js';
import { SANS_FONT_BASE64 } from './fonts/sans.js';
import type { Raster } from '../../types.js';
import { wasmModule } from '../../runtime/wasm.js';
import { decodeSvgText } from './text.js';
import { readSvgSize } from './probe.js';
import { unpremultiply } from '../../raster/pixels.js';
import { resizeRaster } from '../../raster/resize.js';
import { lazy } from '../codec-errors.js';
import { fontCoverage } from './fonts/font-coverage.js';
import type { ProcessWarning } from '../../types.js';
import { assertSvgBounds, assertSvgTreeBounds } from './bounds.js';
import { assertSvgPaintBounds, assertSvgSourceSegments } from './paint.js';
import { svgTextContent, uncoveredScripts } from './text-content.js';

function lazyValue<T>(make: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= make());
}

const ready = lazy(async () => {
  const module = await wasmModule('resvg');
  try {
    await initWasm(module);
  } catch (cause) {
    // resvg-wasm can be initialised once per page or process; a host app that did it first is fine.
    if (cause instanceof Error && /already initiali[sz]ed/i.test(cause.message)) return;
    throw new MediaError(
      'E_WASM_UNAVAILABLE',
      `The SVG renderer (resvg) could not start: ${cause instanceof Error ? cause.message : String(cause)}`,
      { module: 'resvg' },
      { cause },
    );
  }
});

let fontBytes: Uint8Array | undefined;
function sansFont(): Uint8Array {
  return (fontBytes ??= Uint8Array.from(atob(SANS_FONT_BASE64), (c) => c.charCodeAt(0)));
}
const sansCoverage = lazyValue(() => fontCoverage(sansFont()));

export interface RasterizeSvgOptions {
  maxEdge: number;
  /** Caller fonts (TTF/OTF/TTC), used for glyphs the bundled subset lacks and for the families they name. */
  fonts?: readonly Uint8Array[];
  /** Pixels of the largest raster image embedded as a `data:` URI (checked by the SVG job, pipeline/svg.ts). */
  embeddedImagePixels?: number;
}

/**
 * Renders the SVG so its longer side is at most `maxEdge` (never upscaled past its intrinsic size).
 * A sliver too thin to keep one pixel at that scale is rendered one pixel thick and shrunk along its length.
 * Refuses (`E_TOO_COMPLEX`) what would render too long, from cheap facts (see `assertSvgBounds`, `assertSvgTreeBounds`,
 * `assertSvgPaintBounds`).
 * Warns (`W_MISSING_GLYPHS`) about text in scripts no font covers: resvg draws nothing for it.
 */
export async function rasterizeSvg(
  bytes: Uint8Array,
  { maxEdge, fonts = [], embeddedImagePixels = 0 }: RasterizeSvgOptions,
): Promise<{ raster: Raster; warnings: ProcessWarning[] }> {
  await ready();
  // resvg parses UTF-8 only; UTF-16 files (with a BOM) are transcoded first.
  const text = decodeSvgText(bytes, bytes.length);
  const drawnText = svgTextContent(text);
  const size = readSvgSize(bytes);
  const { filterReads } = assertSvgBounds(
    text,
    drawnText,
    size,
    Math.min(1, maxEdge / Math.max(size.width, size.height)),
    embeddedImagePixels,
  );
  assertSvgSourceSegments(text);
  const warnings = missingGlyphWarnings(drawnText, fonts);
  const options = renderOptions(fonts);
  let svg: InstanceType<typeof Resvg> | undefined;
  try {
    svg = new Resvg(text, options);
    const tree = svg.toString();
    assertSvgTreeBounds(tree);
    const { width, height } = svg;
    if (!(width > 0 && height > 0)) throw new Error('the SVG has no drawable size');
    const scale = Math.min(1, maxEdge / Math.max(width, height));
    const thin = Math.min(width, height) * scale < 1;
    assertSvgPaintBounds(tree, thin ? 1 / Math.min(width, height) : scale, filterReads);
    if (thin || scale < 1) {
      const wide = width >= height;
      // Exact target sides for the normal case; a sliver is drawn 1 px thick, then shrunk along its length.
      const fitTo = thin
        ? { mode: 'zoom' as const, value: 1 / Math.min(width, height) }
        : wide
          ? { mode: 'width' as const, value: maxEdge }
          : { mode: 'height' as const, value: maxEdge };
      if (thin && Math.max(width, height) / Math.min(width, height) > MAX_SLIVER_EDGE)
        throw new Error(`the SVG is ${width}×${height}: too thin to draw`);
      release(svg);
      svg = undefined;
      svg = new Resvg(text, { ...options, fitTo });
    }
    const rendered = svg.render();
    const raster: Raster = { data: new Uint8Array(rendered.pixels), width: rendered.width, height: rendered.height };
    rendered.free();
    unpremultiply(raster.data);
    if (!thin) return { raster, warnings };
    const length = Math.max(1, Math.round(Math.max(width, height) * scale));
    return {
      raster: await resizeRaster(
        raster,
        width >= height ? length : raster.width,
        width >= height ? raster.height : length,
        true,
      ),
      warnings,
    };
  } catch (cause) {
    if (isMediaError(cause)) throw cause;
    const detail = cause instanceof Error ? cause.message : String(cause);
    throw new MediaError(
      'E_SVG_INVALID',
      `The SVG could not be rendered (${detail}). Check that it is well-formed XML with an <svg> root.`,
      {},
      { cause },
    );
  } finally {
    if (svg) release(svg);
  }
}

function missingGlyphWarnings(drawnText: string, fonts: readonly Uint8Array[]): ProcessWarning[] {
  if (drawnText === '') return [];
  const scripts = uncoveredScripts(drawnText, [sansCoverage(), ...fonts.map(fontCoverage)]);
  if (scripts.length === 0) return [];
  return [
    {
      code: 'W_MISSING_GLYPHS',
      // resvg's font fallback gives up at the first character no font has, so a later character of that text
      // that needed a fallback font (a caller's CJK font for kana after Hangul) is left out too.
      message: `Some text in the SVG could not be drawn and is missing from the image: no available font has ${scripts.join(', ')} characters${fonts.length > 0 ? ', and other characters in the same text may be missing with them' : ''}.`,
      scripts,
    },
  ];
}

function renderOptions(fonts: readonly Uint8Array[]) {
  const family = 'DejaVu Sans';
  return {
    // Caller fonts first: resvg falls back through the list for glyphs the default family lacks.
    font: {
      fontBuffers: [...fonts, sansFont()],
      defaultFontFamily: family,
      sansSerifFamily: family,
      serifFamily: family,
      monospaceFamily: family,
    },
    shapeRendering: 2 as const,
    textRendering: 1 as const,
  };
}

/** The longest sliver drawn before shrinking: a 1-px line this long is 4 MB of pixels. */
const MAX_SLIVER_EDGE = 1_000_000;

/** Frees resvg's WASM-side tree; a failed free (after a panic) must not hide the real error. */
function release(svg: { free(): void }): void {
  try {
    svg.free();
  } catch {
    // Nothing left to free.
  }
}
