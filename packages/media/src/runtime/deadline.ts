import { MediaError } from '../errors.js';

/**
 * A time budget for work that runs in steps: `check` between steps throws `E_TIMEOUT` once it is spent.
 * WASM calls are synchronous, so one step can overrun it; the refusals from cheap facts keep each step bounded.
 */
export interface Deadline {
  readonly timeoutMs: number;
  /** Throws `E_TIMEOUT` when the budget is spent; `what` names the work done so far ("Decoding the image"). */
  check(what: string): void;
}

/** No budget: `check` never throws. */
export const NO_DEADLINE: Deadline = { timeoutMs: Infinity, check() {} };

/**
 * A deadline `timeoutMs` from now. It is checked between steps, so one step can overrun it. In workerd the
 * clock stands still while code runs (it moves only on I/O): there the platform's own CPU limit applies.
 */
export function deadlineAfter(timeoutMs: number): Deadline {
  if (!Number.isSafeInteger(timeoutMs) || timeoutMs <= 0) {
    throw new MediaError(
      'E_INVALID_OPTIONS',
      `Expected a positive integer for timeoutMs but received ${String(timeoutMs)}.`,
      { option: 'timeoutMs' },
    );
  }
  const start = Date.now();
  return {
    timeoutMs,
    check(what) {
      const elapsedMs = Date.now() - start;
      if (elapsedMs > timeoutMs) {
        throw new MediaError(
          'E_TIMEOUT',
          `${what} took longer than ${timeoutMs} ms, so it was stopped. The file may be built to be slow; raise timeoutMs if it is trusted.`,
          { timeoutMs, elapsedMs, stage: what },
        );
      }
    },
  };
}
