import { MediaError } from './errors.js';
import { recognise } from './formats/registry.js';
import { pdfJobMemory, rasterJobMemory, svgJobMemory } from './pipeline/job-memory.js';
import { processPdf } from './pipeline/pdf.js';
import { processRaster } from './pipeline/raster.js';
import { readRasterSource } from './pipeline/raster-source.js';
import { assertRegionShape } from './pipeline/region.js';
import { processSvg } from './pipeline/svg.js';
import { resolveLimits } from './presets/limits.js';
import { afterAdmission, deadlineAfter, NO_DEADLINE } from './runtime/deadline.js';
import { governed, type JobMemory } from './runtime/memory-governor.js';
import type { ProcessOptions, ProcessResult } from './types.js';

/**
 * Makes `bytes` safe to send: the input untouched when it already fits, otherwise decoded, turned
 * upright, resized and re-encoded within the limits of `options` (default preset: `portable`).
 * A file is only passed through when it passes the checks strict decoders make (chunk CRCs, marker
 * structure, container sizes); otherwise it is re-encoded, or refused when its pixel data is damaged.
 * The type is detected once, here, and the header read once by its format's probe; each job (pipeline/)
 * takes what they found. Before a job decodes anything it is admitted by the memory governor, when one is
 * configured (the Workers entry's default), with its estimate from those facts; one that cannot start in
 * time is `E_BUSY`. Throws `MediaError` when nothing valid can be sent.
 */
export function process(bytes: Uint8Array, options: ProcessOptions = {}): Promise<ProcessResult> {
  return processAdmitted(bytes, options, governed);
}

/** How a job is admitted once its estimate is known: by the governor in use, or (processRequest) by the admission it holds. */
export type Admit = <T>(memory: JobMemory, job: () => Promise<T>) => Promise<T>;

/** `process`, the job admitted through `admit`. */
export async function processAdmitted(
  bytes: Uint8Array,
  options: ProcessOptions,
  admit: Admit,
): Promise<ProcessResult> {
  if (!(bytes instanceof Uint8Array)) {
    throw new MediaError(
      'E_INVALID_INPUT',
      `process() takes the file's bytes as a Uint8Array (a Node Buffer is one), not ${describeValue(bytes)}. Wrap an ArrayBuffer with new Uint8Array(buffer).`,
    );
  }
  const limits = resolveLimits(options);
  const fonts = assertFonts(options.fonts);
  const pages = assertPages(options.pages);
  const region = assertRegionShape(options.region);
  const deadline = limits.timeoutMs === undefined ? NO_DEADLINE : deadlineAfter(limits.timeoutMs);
  const format = recognise(bytes);
  if (pages !== undefined && format.kind !== 'pdf') {
    throw new MediaError(
      'E_INVALID_OPTIONS',
      `pages chooses pages of a PDF; this is a ${format.label} (${format.mediaType}). Leave pages out for it.`,
      { option: 'pages', mediaType: format.mediaType },
    );
  }
  if (region !== undefined && (format.kind === 'pdf' || format.kind === 'svg')) {
    throw new MediaError(
      'E_INVALID_OPTIONS',
      format.kind === 'pdf'
        ? `region cuts a raster image; this is a PDF. Render the region of one page with renderPdfPage(bytes, page, { region }) (in the page's points), or leave region out.`
        : `region cuts a raster image; this is a ${format.label} (${format.mediaType}). Convert it to PNG first, or leave region out.`,
      { option: 'region', mediaType: format.mediaType },
    );
  }
  switch (format.kind) {
    case 'pdf':
      return admit(
        { estimateBytes: pdfJobMemory(bytes), inputBytes: bytes.byteLength },
        afterAdmission(deadline, () => processPdf(bytes, format, limits, pages, deadline)),
      );
    case 'svg': {
      const { info } = await format.probe(bytes);
      deadline.check("Reading the file's header");
      return admit(
        { estimateBytes: svgJobMemory(bytes, limits), inputBytes: bytes.byteLength },
        afterAdmission(deadline, () => processSvg(bytes, info, limits, fonts, deadline)),
      );
    }
    case 'raster': {
      const source = await readRasterSource(bytes, format, limits);
      deadline.check("Reading the file's header");
      return admit(
        { estimateBytes: rasterJobMemory(source, limits), inputBytes: bytes.byteLength },
        afterAdmission(deadline, () => processRaster(source, limits, deadline, region)),
      );
    }
    case 'refused': {
      const { info } = await format.probe(bytes);
      deadline.check("Reading the file's header");
      throw format.refusal(info);
    }
    default: {
      const unreachable: never = format;
      throw new MediaError('E_UNSUPPORTED', `Unsupported media type ${String(unreachable)}.`);
    }
  }
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  const name = typeof value === 'object' ? (value.constructor?.name ?? 'plain object') : typeof value;
  return `${/^[aeiouAEIOU]/.test(name) ? 'an' : 'a'} ${name}`;
}

function assertFonts(fonts: ProcessOptions['fonts']): readonly Uint8Array[] {
  if (fonts === undefined) return [];
  if (!Array.isArray(fonts) || !fonts.every((font) => font instanceof Uint8Array)) {
    throw new MediaError(
      'E_INVALID_OPTIONS',
      'Expected fonts to be an array of Uint8Array (TTF, OTF or TTC file bytes).',
      { option: 'fonts' },
    );
  }
  return fonts;
}

/** `pages`: PDF page numbers from 1, at least one, each at most once (whether they exist is the PDF's to say). */
function assertPages(pages: ProcessOptions['pages']): readonly number[] | undefined {
  if (pages === undefined) return undefined;
  const valid =
    Array.isArray(pages) &&
    pages.length > 0 &&
    pages.every((page) => Number.isSafeInteger(page) && page >= 1) &&
    new Set(pages).size === pages.length;
  if (!valid) {
    throw new MediaError(
      'E_INVALID_OPTIONS',
      `Expected pages to be a non-empty array of page numbers from 1, each at most once (for example [1, 3]), but received ${Array.isArray(pages) ? `[${pages.map(String).join(', ')}]` : describeValue(pages)}.`,
      { option: 'pages' },
    );
  }
  return pages;
}
