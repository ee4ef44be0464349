import { process, type ProcessOptions, type ProcessResult } from '@glimpse/media';

/** Fonts for SVG text in the file tools. */
export interface SvgFontOptions {
  /** Fonts (TTF, OTF or TTC bytes) for SVG text, tried before media's bundled DejaVu Sans subset. */
  fonts?: readonly Uint8Array[];
  /**
   * More fonts, asked for only when an SVG's text needs characters that `fonts` and the bundled face lack
   * (media's `W_MISSING_GLYPHS`): called with the scripts it names (`Han (Chinese characters)`, `Hangul`, …),
   * and the SVG is drawn once more with what it returns. The Node CLI and `glimpse mcp` pass the system's
   * fonts here (`systemFontsFor`), so the common SVG never pays for reading them.
   */
  fallbackFonts?: (scripts: readonly string[]) => Promise<readonly Uint8Array[]>;
}

/** `process` with the caller's fonts, and once more with the fallback fonts when SVG text was left out. */
export async function processWithFonts(
  bytes: Uint8Array,
  options: ProcessOptions,
  { fonts = [], fallbackFonts }: SvgFontOptions,
): Promise<ProcessResult> {
  const first = await process(bytes, fonts.length > 0 ? { ...options, fonts } : options);
  const missing = first.warnings.find((warning) => warning.code === 'W_MISSING_GLYPHS');
  if (missing === undefined || fallbackFonts === undefined) return first;
  const more = await fallbackFonts(missing.scripts);
  if (more.length === 0) return first;
  return process(bytes, { ...options, fonts: [...fonts, ...more] });
}
