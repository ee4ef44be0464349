// The isolate-wide memory governor: jobs that run at once in one process or isolate share its memory, and
// each job's caps bound only that job. So every job says, before it decodes anything, how much memory it
// may take at its peak (its estimate, from the header's facts: pipeline/job-memory.ts), and starts only
// while the estimates of the jobs running add up to at most the budget. The rest wait in arrival order;
// one that cannot start within a bound (the queue is full, or it waited too long) is refused with
// E_BUSY, which says when to try again. A Cloudflare Worker ends the isolate, and every request in it,
// past 128 MB, so the Workers entry governs by default; elsewhere it is opt-in (configureMemoryGovernor).
import { MediaError } from '../errors.js';

export interface MemoryGovernorOptions {
  /** Most bytes the estimates of the jobs running at once may add up to. */
  maxConcurrentMemory: number;
  /** Most jobs waiting to start; one more is refused at once with E_BUSY. Default 32; 0 is no queue (a job that cannot start at once is refused). */
  maxQueuedJobs?: number;
  /** Longest a job waits to start before it is refused with E_BUSY, in ms. Default 30,000. */
  maxWaitMs?: number;
  /**
   * Most bytes of input the jobs waiting may hold (a waiting job's input is in memory already: in a
   * Worker, its request body); one more is refused at once with E_BUSY. Default half maxConcurrentMemory.
   */
  maxQueuedBytes?: number;
}

/** What the governor is told of a job before it starts. */
export interface JobMemory {
  /** The most memory the job may take at its peak (pipeline/job-memory.ts). */
  estimateBytes: number;
  /** What it holds while it waits: its input. */
  inputBytes?: number;
}

/** A job's right to run; `release` (idempotent) gives its memory back and starts the jobs waiting that now fit. */
export interface Admission {
  release(): void;
  /**
   * Changes what the job is admitted with, once it knows more (processRequest is admitted on its body's
   * declared length, then reads the header). Lower: given back at once. Higher: kept when it still fits
   * beside the jobs running; otherwise the job gives its admission back and waits at the head of the
   * queue (its input counted as held) until the new estimate fits, or is E_BUSY after maxWaitMs. Two
   * jobs that each wait to grow never hold memory from each other.
   */
  refit(memory: JobMemory): Promise<void>;
}

/** What the governor holds now, and the most its running jobs' estimates ever added up to. */
export interface GovernorState {
  runningJobs: number;
  queuedJobs: number;
  queuedBytes: number;
  admittedBytes: number;
  peakAdmittedBytes: number;
}

interface Waiting {
  estimateBytes: number;
  inputBytes: number;
  /** Called when the job starts, with its estimate counted as admitted. */
  start(): void;
  timer: ReturnType<typeof setTimeout> | undefined;
}

/** An admitted job's estimate while it runs; `waiting` while a refit waits for room. */
interface Grant {
  estimate: number;
  released: boolean;
  waiting: boolean;
  started: number;
  /** Its place in the queue while it waits. */
  queued?: Waiting;
}

const DEFAULT_MAX_QUEUED_JOBS = 32;
const DEFAULT_MAX_WAIT_MS = 30_000;

/** The shortest retry hint: a job of the sizes governed takes about a second of CPU. */
const MIN_RETRY_AFTER_MS = 1000;

/**
 * Admits jobs by their memory estimates, first come first served. A job whose estimate alone exceeds the
 * budget is not refused for that (its own caps decide whether it can run at all): it runs alone, starting
 * when no other job runs, and nothing starts beside it.
 */
export class MemoryGovernor {
  readonly maxConcurrentMemory: number;
  readonly maxQueuedJobs: number;
  readonly maxWaitMs: number;
  readonly maxQueuedBytes: number;
  private admittedBytes = 0;
  private queuedBytes = 0;
  private peakAdmittedBytes = 0;
  private running = 0;
  private readonly queue: Waiting[] = [];
  /** How long admitted jobs held their admission, averaged (for the retry hint). */
  private averageHoldMs = 0;
  /** The grants running (the retry hint counts how long they have held theirs so far). */
  private readonly grants = new Set<Grant>();

  constructor(options: MemoryGovernorOptions) {
    this.maxConcurrentMemory = positiveOption('maxConcurrentMemory', options.maxConcurrentMemory);
    this.maxQueuedJobs =
      options.maxQueuedJobs === undefined
        ? DEFAULT_MAX_QUEUED_JOBS
        : nonNegativeOption('maxQueuedJobs', options.maxQueuedJobs);
    this.maxWaitMs =
      options.maxWaitMs === undefined ? DEFAULT_MAX_WAIT_MS : nonNegativeOption('maxWaitMs', options.maxWaitMs);
    this.maxQueuedBytes =
      options.maxQueuedBytes === undefined
        ? Math.floor(this.maxConcurrentMemory / 2)
        : nonNegativeOption('maxQueuedBytes', options.maxQueuedBytes);
  }

  /** Resolves when the job may start; rejects with E_BUSY when it cannot start within the bounds. */
  admit({ estimateBytes, inputBytes = 0 }: JobMemory): Promise<Admission> {
    const estimate = Math.max(0, Math.ceil(estimateBytes));
    const input = Math.max(0, Math.ceil(inputBytes));
    if (this.queue.length === 0 && this.fits(estimate)) {
      const grant: Grant = { estimate, released: false, waiting: false, started: 0 };
      this.begin(grant);
      return Promise.resolve(this.admission(grant));
    }
    if (this.queue.length >= this.maxQueuedJobs) {
      return Promise.reject(this.busy(`${this.queue.length} jobs are waiting already, the most this isolate queues`));
    }
    if (this.queuedBytes + input > this.maxQueuedBytes) {
      return Promise.reject(
        this.busy(
          `the ${this.queue.length} jobs waiting hold ${megabytes(this.queuedBytes)} of input, and this one's ${megabytes(input)} would pass the ${megabytes(this.maxQueuedBytes)} they may`,
        ),
      );
    }
    return new Promise<Admission>((resolve, reject) => {
      const grant: Grant = { estimate, released: false, waiting: true, started: 0 };
      this.wait(grant, input, 'last', () => resolve(this.admission(grant)), reject);
    });
  }

  /** Queues `grant` (at the end, or at the head for a refit) until it fits; E_BUSY after maxWaitMs. */
  private wait(
    grant: Grant,
    input: number,
    where: 'last' | 'first',
    started: () => void,
    refused: (error: MediaError) => void,
  ): void {
    const waiting: Waiting = {
      estimateBytes: grant.estimate,
      inputBytes: input,
      start: () => {
        this.begin(grant);
        started();
      },
      timer: undefined,
    };
    grant.queued = waiting;
    waiting.timer = setTimeout(() => {
      if (!this.dequeue(waiting)) return;
      grant.released = true; // a refit that timed out holds nothing; its release is a no-op
      refused(this.busy(`it waited ${this.maxWaitMs} ms for memory to start in`));
      this.pump(); // the head may have changed
    }, this.maxWaitMs);
    if (where === 'first') this.queue.unshift(waiting);
    else this.queue.push(waiting);
    this.queuedBytes += input;
  }

  /** Runs `job` once admitted, and releases its admission however it ends. */
  async run<T>(memory: JobMemory, job: () => Promise<T>): Promise<T> {
    const admission = await this.admit(memory);
    try {
      return await job();
    } finally {
      admission.release();
    }
  }

  state(): GovernorState {
    return {
      runningJobs: this.running,
      queuedJobs: this.queue.length,
      queuedBytes: this.queuedBytes,
      admittedBytes: this.admittedBytes,
      peakAdmittedBytes: this.peakAdmittedBytes,
    };
  }

  /** Within the budget beside the jobs running; a job over the budget fits only when none runs. */
  private fits(estimate: number): boolean {
    return this.running === 0 || this.admittedBytes + estimate <= this.maxConcurrentMemory;
  }

  /** Counts `grant` as running (first admission, or again after a refit waited). */
  private begin(grant: Grant): void {
    if (grant.started === 0) grant.started = Date.now();
    grant.waiting = false;
    grant.queued = undefined;
    this.running++;
    this.grants.add(grant);
    this.admittedBytes += grant.estimate;
    this.peakAdmittedBytes = Math.max(this.peakAdmittedBytes, this.admittedBytes);
  }

  /** Stops counting `grant` as running. */
  private end(grant: Grant): void {
    this.running--;
    this.grants.delete(grant);
    this.admittedBytes -= grant.estimate;
  }

  private admission(grant: Grant): Admission {
    return {
      release: () => {
        if (grant.released) return;
        grant.released = true;
        if (grant.waiting) {
          // released while a refit waits (its job gave up): leave the queue
          if (grant.queued && this.dequeue(grant.queued)) clearTimeout(grant.queued.timer);
        } else {
          this.end(grant);
          this.averageHoldMs = this.averageHoldMs * 0.8 + (Date.now() - grant.started) * 0.2;
        }
        this.pump();
      },
      refit: (memory) => this.refit(grant, memory),
    };
  }

  private refit(grant: Grant, { estimateBytes, inputBytes = 0 }: JobMemory): Promise<void> {
    if (grant.released || grant.waiting) return Promise.resolve();
    const estimate = Math.max(0, Math.ceil(estimateBytes));
    const others = this.admittedBytes - grant.estimate;
    if (estimate <= grant.estimate || this.running === 1 || others + estimate <= this.maxConcurrentMemory) {
      this.admittedBytes = others + estimate;
      this.peakAdmittedBytes = Math.max(this.peakAdmittedBytes, this.admittedBytes);
      grant.estimate = estimate;
      if (others + estimate < this.maxConcurrentMemory) this.pump();
      return Promise.resolve();
    }
    // Growing past the budget: wait first in line, holding nothing but the input.
    return new Promise<void>((resolve, reject) => {
      this.end(grant);
      grant.estimate = estimate;
      grant.waiting = true;
      this.wait(grant, Math.max(0, Math.ceil(inputBytes)), 'first', resolve, reject);
      this.pump(); // starts it at once if the others fit beside it now; or the memory it gave back starts nothing ahead of it
    });
  }

  /** Starts waiting jobs from the head of the queue while they fit: none overtakes an earlier one. */
  private pump(): void {
    for (let head = this.queue[0]; head && this.fits(head.estimateBytes); head = this.queue[0]) {
      this.dequeue(head);
      clearTimeout(head.timer);
      head.start();
    }
  }

  private dequeue(waiting: Waiting): boolean {
    const at = this.queue.indexOf(waiting);
    if (at < 0) return false;
    this.queue.splice(at, 1);
    this.queuedBytes -= waiting.inputBytes;
    return true;
  }

  private busy(why: string): MediaError {
    const ahead = this.queue.length + this.running;
    // A job holding its admission longer than jobs used to (a body still arriving, a slow file) makes the
    // wait longer than the average says: the hint takes the longest hold so far as the typical one then.
    const now = Date.now();
    let holdMs = this.averageHoldMs;
    for (const grant of this.grants) holdMs = Math.max(holdMs, now - grant.started);
    const retryAfterMs = Math.min(
      Math.max(this.maxWaitMs, MIN_RETRY_AFTER_MS),
      Math.max(MIN_RETRY_AFTER_MS, Math.ceil(holdMs * ahead)),
    );
    return new MediaError(
      'E_BUSY',
      `This isolate is busy: ${why}, with ${this.running} running in ${megabytes(this.maxConcurrentMemory)}. Nothing is wrong with the file: send it again after ${retryAfterMs} ms (in a Worker, answer 503 with Retry-After).`,
      {
        retryAfterMs,
        runningJobs: this.running,
        queuedJobs: this.queue.length,
        maxConcurrentMemory: this.maxConcurrentMemory,
      },
    );
  }
}

let current: MemoryGovernor | undefined;

/**
 * Governs every job of this copy of the core from now on: `options` make a new governor (jobs admitted by
 * the one before keep their admission there), undefined turns governing off. A field not given keeps the
 * value of the governor in use (so `{ maxWaitMs: 10_000 }` changes only the wait of the Workers entry's
 * default); with none in use, `maxConcurrentMemory` is required and the rest take their defaults.
 * Returns the governor in use.
 */
export function configureMemoryGovernor(
  options: Partial<MemoryGovernorOptions> | undefined,
): MemoryGovernor | undefined {
  if (options === undefined) current = undefined;
  else {
    const given = Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));
    if (!current && given['maxConcurrentMemory'] === undefined)
      throw new MediaError(
        'E_INVALID_OPTIONS',
        'configureMemoryGovernor() needs maxConcurrentMemory when no governor is in use (fields not given keep the values of the one in use, and there is none).',
        { option: 'maxConcurrentMemory' },
      );
    current = new MemoryGovernor({
      ...(current && {
        maxConcurrentMemory: current.maxConcurrentMemory,
        maxQueuedJobs: current.maxQueuedJobs,
        maxWaitMs: current.maxWaitMs,
        maxQueuedBytes: current.maxQueuedBytes,
      }),
      ...given,
    } as MemoryGovernorOptions);
  }
  return current;
}

/** The governor in use, if any. */
export function memoryGovernor(): MemoryGovernor | undefined {
  return current;
}

/** Runs `job` under the governor in use (at once when there is none). */
export function governed<T>(memory: JobMemory, job: () => Promise<T>): Promise<T> {
  return current ? current.run(memory, job) : job();
}

function megabytes(bytes: number): string {
  return `${Math.round(bytes / 2 ** 20)} MB`;
}

function positiveOption(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value <= 0) throw invalid(name, value, 'a positive integer');
  return value;
}

function nonNegativeOption(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 0) throw invalid(name, value, 'a non-negative integer');
  return value;
}

function invalid(name: string, value: unknown, what: string): MediaError {
  return new MediaError('E_INVALID_OPTIONS', `Expected ${what} for ${name} but received ${String(value)}.`, {
    option: name,
  });
}
