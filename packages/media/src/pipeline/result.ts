// The parts of a ProcessResult every job fills the same way.
import type { ProbeResult, ProcessResult, ProcessStep, ProcessWarning } from '../types.js';
import type { Fitted } from './fit.js';

/** What the source was, as `ProcessResult.original` says it. */
export function original(info: ProbeResult): ProcessResult['original'] {
  return {
    mediaType: info.mediaType,
    width: info.width ?? 0,
    height: info.height ?? 0,
    bytes: info.bytes,
    orientation: info.orientation,
    frames: info.frames,
    ...('pages' in info && info.pages !== undefined ? { pages: info.pages } : {}),
  };
}

/** The result of anything that was decoded and re-encoded; `steps` are those taken before fitting. */
export function reencodedResult(
  fitted: Fitted,
  info: ProbeResult,
  steps: ProcessStep[],
  resized: boolean,
  warnings: ProcessWarning[],
): ProcessResult {
  return {
    data: fitted.data,
    mediaType: fitted.mediaType,
    width: fitted.width,
    height: fitted.height,
    bytes: fitted.data.byteLength,
    original: original(info),
    resized: resized || fitted.steps.includes('scaled-for-bytes'),
    reencoded: true,
    steps: [...steps, ...fitted.steps.filter((step) => !steps.includes(step))],
    warnings,
  };
}
