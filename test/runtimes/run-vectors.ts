// Runs the shared vectors through one runtime's `process` and compares with the manifest. Runtime-neutral:
// uses only fetch-free web APIs (crypto.subtle, TextEncoder) that Node, Deno, browsers and workerd share.
import type { PdfText, PdfTextOptions, ProcessOptions, ProcessResult } from '@glimpse/media';
import type { Vector, VectorObservation, VectorOperation } from './vector-manifest.js';

/** The media core's entry points a vector can call; each runtime passes its own bundle's. */
export interface MediaFunctions {
  process(bytes: Uint8Array, options?: ProcessOptions): Promise<ProcessResult>;
  renderPdfPage(bytes: Uint8Array, page: number, options?: ProcessOptions): Promise<ProcessResult>;
  pdfText(bytes: Uint8Array, options?: PdfTextOptions): Promise<PdfText>;
}

/** Runs a vector's call: `process`, unless its operation names a PDF page or the PDF's text. */
export function runOperation(
  media: MediaFunctions,
  input: Uint8Array,
  options: ProcessOptions,
  operation?: VectorOperation,
): Promise<ProcessResult | PdfText> {
  if (operation === undefined) return media.process(input, options);
  if ('renderPdfPage' in operation) return media.renderPdfPage(input, operation.renderPdfPage, options);
  return media.pdfText(input, operation.pdfText);
}

export function isPdfText(result: ProcessResult | PdfText): result is PdfText {
  return 'pageCount' in result && !('data' in result);
}

/** The bytes a text result is hashed as: the UTF-8 JSON of its pages. */
export function textBytes(text: PdfText): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(text.pages));
}

export interface VectorOutcome {
  name: string;
  passed: boolean;
  /** What differed, or a short description of the output when it matched. */
  detail: string;
  milliseconds: number;
}

export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new Uint8Array(bytes));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

function hasCode(error: unknown): error is { code: string; message: string } {
  return (
    typeof error === 'object' &&
    error !== null &&
    'code' in error &&
    typeof error.code === 'string' &&
    'message' in error
  );
}

/** A result in the manifest's shape. */
export async function observationOf(result: ProcessResult | PdfText): Promise<VectorObservation> {
  if (isPdfText(result)) {
    const characters = result.pages.reduce((sum, page) => sum + page.text.length, 0);
    return {
      sha256: await sha256Hex(textBytes(result)),
      mediaType: 'text/plain',
      pageCount: result.pageCount,
      characters,
    };
  }
  return {
    sha256: await sha256Hex(result.data),
    mediaType: result.mediaType,
    width: result.width,
    height: result.height,
    bytes: result.bytes,
    steps: result.steps,
  };
}

/**
 * Runs a vector's call and reports what it produced in the manifest's shape; `onResult` sees the output
 * itself (Node's suite decodes it). Errors without a code are rethrown.
 */
export async function observe(
  media: MediaFunctions,
  input: Uint8Array,
  vector: Pick<Vector, 'options' | 'operation'>,
  onResult?: (result: ProcessResult | PdfText) => Promise<void>,
): Promise<VectorObservation> {
  let result: ProcessResult | PdfText;
  try {
    result = await runOperation(media, input, vector.options, vector.operation);
  } catch (error) {
    if (hasCode(error)) return { error: error.code };
    throw error;
  }
  await onResult?.(result);
  return observationOf(result);
}

/** Field-by-field differences between what the manifest expects and what was observed; empty when equal. */
export function differences(expected: VectorObservation, observed: VectorObservation): string[] {
  const want = new Map<string, unknown>(Object.entries(expected));
  const got = new Map<string, unknown>(Object.entries(observed));
  const found: string[] = [];
  for (const key of new Set([...want.keys(), ...got.keys()])) {
    const expectedValue = JSON.stringify(want.get(key));
    const observedValue = JSON.stringify(got.get(key));
    if (expectedValue !== observedValue) found.push(`${key}: expected ${expectedValue}, got ${observedValue}`);
  }
  return found;
}

/** One line for a report: the output type, size, bytes and hash prefix, or the error code. */
export function describeObservation(observation: VectorObservation): string {
  if ('error' in observation) return observation.error;
  if (observation.mediaType === 'text/plain')
    return `text ${observation.pageCount} pages ${observation.characters} characters ${observation.sha256.slice(0, 12)}`;
  return `${observation.mediaType} ${observation.width}x${observation.height} ${observation.bytes} B ${observation.sha256.slice(0, 12)}`;
}

/** One vector: compare with the manifest; a thrown non-media error counts as a failure, not a crash. */
export async function checkVector(vector: Vector, observe: () => Promise<VectorObservation>): Promise<VectorOutcome> {
  const started = Date.now();
  try {
    const observed = await observe();
    const found = differences(vector.expect, observed);
    return {
      name: vector.name,
      passed: found.length === 0,
      detail: found.length === 0 ? describeObservation(observed) : found.join('; '),
      milliseconds: Date.now() - started,
    };
  } catch (error) {
    return {
      name: vector.name,
      passed: false,
      detail: `threw ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      milliseconds: Date.now() - started,
    };
  }
}

/** The report every suite prints: one line per vector, then `N passed, N failed`. */
export function report(runtime: string, outcomes: VectorOutcome[]): { text: string; failed: number } {
  const lines = outcomes.map(
    (outcome) =>
      `${outcome.passed ? 'ok  ' : 'FAIL'} ${runtime} ${outcome.name} (${outcome.milliseconds} ms): ${outcome.detail}`,
  );
  const failed = outcomes.filter((outcome) => !outcome.passed).length;
  lines.push(`${outcomes.length - failed} passed, ${failed} failed`);
  return { text: lines.join('\n'), failed };
}
