import type { MediaErrorCode, ProcessResult } from '@glimpse/media';

// What the model reads about an attachment; `name` is its filename or "attachment N".

/** The original's size as the model would see it upright: EXIF orientations 5–8 swap the stored sides. */
export function uprightOriginal(result: ProcessResult): { width: number; height: number } {
  const { width, height, orientation } = result.original;
  return orientation >= 5 ? { width: height, height: width } : { width, height };
}

/** How many original pixels one displayed pixel spans; the long sides give it whatever the rotation. */
export function coordinateFactor(result: ProcessResult): number {
  const original = uprightOriginal(result);
  return Math.max(original.width, original.height) / Math.max(result.width, result.height);
}

const round = (n: number): string => String(Math.round(n * 1000) / 1000);

/**
 * Notes for a processed image the model should know about: a resize (with the factor that maps coordinates
 * back, for agents that click on screenshots), an animation reduced to its first frame, and every warning
 * (text that could not be drawn, the missing part of a cut-off file). Undefined when the image reached the
 * model as it was.
 */
export function processNote(name: string, result: ProcessResult): string | undefined {
  if (result.mediaType === 'application/pdf') return undefined;
  const notes: string[] = [];
  if (result.resized) {
    const original = uprightOriginal(result);
    notes.push(
      `${name} was resized from ${original.width}x${original.height} to ${result.width}x${result.height} px; ` +
        `multiply coordinates in it by ${round(coordinateFactor(result))} to get coordinates in the original`,
    );
  }
  if (result.steps.includes('first-frame'))
    notes.push(`${name} is animated (${result.original.frames} frames); only the first frame is shown`);
  if (result.steps.includes('first-page'))
    notes.push(`${name} has ${result.original.pages ?? 'several'} pages; only the first page is shown`);
  for (const warning of result.warnings ?? []) notes.push(`${name}: ${warning.message.replace(/\.$/, '')}`);
  return notes.length > 0 ? `[${notes.join('. ')}]` : undefined;
}

const WHAT: Readonly<Record<MediaErrorCode, string>> = {
  E_UNSUPPORTED: 'unsupported format',
  E_CORRUPT: 'the file is damaged',
  E_TOO_MANY_PIXELS: 'the image has too many pixels',
  E_TOO_LARGE: 'too large even after shrinking',
  E_PDF_ENCRYPTED: 'the PDF is encrypted',
  E_SVG_INVALID: 'the SVG could not be rendered',
  E_WASM_UNAVAILABLE: 'the image codecs are not available in this runtime',
  E_INVALID_OPTIONS: 'invalid processing options',
  E_INVALID_INPUT: 'the attachment has no bytes to read',
  E_TOO_COMPLEX: 'too complex to render in bounded time',
  E_TIMEOUT: 'reading it took too long',
  E_BUSY: 'the host was busy with other images, nothing is wrong with the file; try again shortly',
};

/** The note that stands in for an attachment that could not be attached; the turn goes on without it. */
export function failureNote(name: string, code: MediaErrorCode | undefined, message: string): string {
  const what = code === undefined ? 'it could not be processed' : WHAT[code];
  return `[could not attach ${name}: ${what} (${code ?? 'E_INTERNAL'}). ${message}]`;
}
