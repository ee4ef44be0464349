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

// Every deadline's start and checks, counted (those of jobs without a budget too): when others happened within one
// deadline's time, other jobs were working in the process then (jobs interleave at each await), so the time it took
// says little about its file.
let events = 0;

/** No budget: `check` never throws; it only counts, so that a timed job beside untimed ones knows it shared the time. */
export const NO_DEADLINE: Deadline = {
  timeoutMs: Infinity,
  check() {
    events++;
  },
};

/** What `afterAdmission` needs of a deadline from `deadlineAfter`: to leave out the time its job waited. */
const waits = new WeakMap<Deadline, (ms: number) => void>();

/**
 * A deadline `timeoutMs` from now. It is checked between steps, so one step can overrun it. In workerd the
 * clock stands still while code runs (it moves only on I/O): there the platform's own CPU limit applies.
 * A timeout while other jobs ran in the process says so, and does not blame the file.
 */
export function deadlineAfter(timeoutMs: number): Deadline {
  if (!Number.isSafeInteger(timeoutMs) || timeoutMs <= 0) {
    throw new MediaError(
      'E_INVALID_OPTIONS',
      `Expected a positive integer for timeoutMs but received ${String(timeoutMs)}.`,
      { option: 'timeoutMs' },
    );
  }
  let start = Date.now();
  const eventsAtStart = ++events;
  let ownChecks = 0;
  const deadline: Deadline = {
    timeoutMs,
    check(what) {
      events++;
      ownChecks++;
      const elapsedMs = Date.now() - start;
      if (elapsedMs <= timeoutMs) return;
      const shared = events - eventsAtStart > ownChecks;
      throw new MediaError(
        'E_TIMEOUT',
        shared
          ? `${what} took longer than ${timeoutMs} ms, so it was stopped, while other jobs were running in this process: the time was shared with them, so it says little about this file. Raise timeoutMs, or run fewer jobs at once.`
          : `${what} took longer than ${timeoutMs} ms, so it was stopped. The file may be built to be slow; raise timeoutMs if it is trusted.`,
        { timeoutMs, elapsedMs, stage: what, ...(shared && { sharedWithOtherJobs: true }) },
      );
    },
  };
  waits.set(deadline, (ms) => {
    start += ms;
  });
  return deadline;
}

/**
 * `job` for the memory governor's `admit`, with `deadline` counting from when the job starts running: the time it
 * waited in the governor's queue, behind other jobs, is not the file's.
 */
export function afterAdmission<T>(deadline: Deadline, job: () => Promise<T>): () => Promise<T> {
  const queued = Date.now();
  return () => {
    waits.get(deadline)?.(Date.now() - queued);
    return job();
  };
}
