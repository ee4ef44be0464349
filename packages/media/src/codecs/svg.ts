// SVG adapter: resvg (Rust, WASM) rasterises; text uses the bundled DejaVu Sans subset (WASM has no system fonts).
import { initWasm, Resvg } from '@resvg/resvg-wasm';
import { MediaError } from '../errors.js';
import { SANS_FONT_BASE64 } from '../fonts/sans.js';
import type { Raster } from '../types.js';
import { wasmModule } from '../wasm.js';
import { lazy } from './codec-support.js';

const ready = lazy(async () => initWasm(await wasmModule('resvg')));

let fontBytes: Uint8Array | undefined;
function sansFont(): Uint8Array {
  return (fontBytes ??= Uint8Array.from(atob(SANS_FONT_BASE64), (c) => c.charCodeAt(0)));
}

/** Renders the SVG so its longer side is at most `maxEdge` (never upscaled past its intrinsic size). */
export async function rasterizeSvg(bytes: Uint8Array, maxEdge: number): Promise<Raster> {
  await ready();
  let svg: InstanceType<typeof Resvg> | undefined;
  try {
    const options = {
      font: { fontBuffers: [sansFont()], defaultFontFamily: 'DejaVu Sans', sansSerifFamily: 'DejaVu Sans', serifFamily: 'DejaVu Sans', monospaceFamily: 'DejaVu Sans' },
      shapeRendering: 2 as const,
      textRendering: 1 as const,
    };
    svg = new Resvg(bytes, options);
    const { width, height } = svg;
    if (!(width > 0 && height > 0)) throw new Error('the SVG has no drawable size');
    if (Math.max(width, height) > maxEdge) {
      svg.free();
      svg = undefined;
      const fitTo = width >= height ? { mode: 'width' as const, value: maxEdge } : { mode: 'height' as const, value: maxEdge };
      svg = new Resvg(bytes, { ...options, fitTo });
    }
    const rendered = svg.render();
    const raster: Raster = { data: new Uint8Array(rendered.pixels), width: rendered.width, height: rendered.height };
    rendered.free();
    return raster;
  } catch (cause) {
    if (cause instanceof MediaError) throw cause;
    const detail = cause instanceof Error ? cause.message : String(cause);
    throw new MediaError('E_SVG_INVALID', `The SVG could not be rendered (${detail}). Check that it is well-formed XML with an <svg> root.`, {}, { cause });
  } finally {
    svg?.free();
  }
}
