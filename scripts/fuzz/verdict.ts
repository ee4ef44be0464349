// What one `process` call on a fuzz input came to, and the checks that turn a result into a finding.
import type { ProcessOptions, ProcessResult } from '@glimpse/media';
import { PRESETS } from '@glimpse/media';
import { strictProblems } from '../../test/support/strict-oracle.js';

/** Ways a call can fail the fuzzer; every one is a bug. */
export type FindingKind =
  | 'untyped-error' // threw something that is not a MediaError with a code
  | 'crash' // the process running it died
  | 'hang' // no answer within the time limit
  | 'over-limit' // an output beyond maxEdge/maxBytes/accepted types/PDF limits, or a size that lies
  | 'strict-refused' // an output a strict decoder refuses (the oracle's tools or own checks)
  | 'chatter'; // the call wrote to stdout/stderr (codec chatter must never reach the host)

export type Verdict =
  | {
      outcome: 'output';
      mediaType: string;
      passthrough: boolean;
      milliseconds: number;
      width: number;
      height: number;
      steps: string[];
      data?: Uint8Array;
    }
  | { outcome: 'refused'; code: string; milliseconds: number }
  | { outcome: 'finding'; finding: FindingKind; detail: string; milliseconds: number };

/** Problems with a result that `process` returned for `options`; empty when it is sound and within limits. */
export function resultProblems(
  input: Uint8Array,
  result: ProcessResult,
  options: ProcessOptions,
): { finding: FindingKind; detail: string } | undefined {
  const preset = PRESETS[options.provider ?? 'portable'];
  const overLimit: string[] = [];
  if (result.bytes !== result.data.byteLength)
    overLimit.push(`result.bytes ${result.bytes} but ${result.data.byteLength} bytes of data`);
  if (result.mediaType === 'application/pdf') {
    const maxPdfBytes = options.maxPdfBytes ?? preset.maxPdfBytes;
    if (result.bytes > maxPdfBytes) overLimit.push(`PDF of ${result.bytes} B over maxPdfBytes ${maxPdfBytes}`);
    const maxPdfPages = options.maxPdfPages ?? preset.maxPdfPages;
    if ((result.pages ?? 0) > maxPdfPages) overLimit.push(`${result.pages} pages over maxPdfPages ${maxPdfPages}`);
  } else {
    const maxEdge = options.maxEdge ?? preset.maxEdge;
    const maxBytes = options.maxBytes ?? preset.maxBytes;
    if (Math.max(result.width, result.height) > maxEdge)
      overLimit.push(`${result.width}x${result.height} over maxEdge ${maxEdge}`);
    if (result.width < 1 || result.height < 1) overLimit.push(`empty ${result.width}x${result.height} output`);
    if (result.bytes > maxBytes) overLimit.push(`${result.bytes} B over maxBytes ${maxBytes}`);
    if (!preset.accepts.includes(result.mediaType))
      overLimit.push(`${result.mediaType} is not accepted by ${options.provider ?? 'portable'}`);
    // The bomb guard is about decoding stored pixels; an SVG is drawn at the output size (within maxEdge).
    const original = result.original.width * result.original.height;
    if (
      options.maxInputPixels !== undefined &&
      original > options.maxInputPixels &&
      result.original.mediaType !== 'image/svg+xml'
    )
      overLimit.push(`input of ${original} px decoded despite maxInputPixels ${options.maxInputPixels}`);
  }
  if (overLimit.length > 0) return { finding: 'over-limit', detail: overLimit.join('; ') };
  const problems = strictProblems(result.data, result.mediaType);
  if (problems.length > 0) {
    const passthrough = result.data === input || !result.reencoded;
    return {
      finding: 'strict-refused',
      detail: `${passthrough ? 'passed through' : 're-encoded'} ${result.mediaType}: ${problems.join('; ')}`,
    };
  }
  return undefined;
}
