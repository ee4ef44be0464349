import { MediaError } from './errors.js';

/** A time budget checked between the stages of `process`; WASM calls are synchronous and cannot be cut short. */
export interface Deadline {
  /** Throws `E_TIMEOUT` when the budget is spent; `next` names the stage that would start. */
  check(next: string): void;
}

const NO_DEADLINE: Deadline = { check() {} };

export function startDeadline(timeoutMs: number | undefined): Deadline {
  if (timeoutMs === undefined) return NO_DEADLINE;
  const started = performance.now();
  return {
    check(next) {
      const elapsed = performance.now() - started;
      if (elapsed > timeoutMs) {
        throw new MediaError(
          'E_TIMEOUT',
          `Processing took ${Math.round(elapsed)} ms, over the ${timeoutMs} ms budget (timeoutMs), and was stopped before ${next}. Send a smaller file, or raise timeoutMs.`,
          { timeoutMs, elapsedMs: Math.round(elapsed), stage: next },
        );
      }
    },
  };
}
