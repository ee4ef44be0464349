import { availableParallelism } from 'node:os';
import { basename, extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { SHARED_TIME_ADVICE } from '../results/model-error-text.js';
import type { ViewFileOutcome } from '../tools/view-file.js';
import { isViewReply, outcomeFromReply } from './view-worker-protocol.js';
import type { PortableViewOptions, ViewRequest, ViewWorkerData } from './view-worker-protocol.js';

/** How long one view_file call may run in its worker before it is stopped (`glimpse mcp --timeout-ms`). */
export const DEFAULT_VIEW_TIMEOUT_MS = 30_000;

/** Runs one view_file call; the MCP server's seam for where the media work happens. */
export type ViewFileRunner = (
  args: Record<string, unknown>,
  options: PortableViewOptions,
  signal?: AbortSignal,
) => Promise<ViewFileOutcome>;

export interface ViewWorkerPoolOptions {
  /** Worker threads at most. Default: min(2, cores), as many as the server views at once. */
  size?: number;
  /** Budget of one call, counted from when a worker takes it (time queued does not count). */
  timeoutMs?: number;
  /** The worker entry. Default: `mcp-worker` beside this bundle, with its extension (dist/mcp-worker.js). */
  workerUrl?: URL;
  /** Fonts (TTF, OTF or TTC bytes) for SVG text, given to each worker once (`glimpse mcp --font FILE`). */
  fonts?: readonly Uint8Array[];
  /** Let the workers draw SVG text the fonts lack with the system's fonts (fontconfig's fc-list). Default true. */
  systemFonts?: boolean;
}

export interface ViewWorkerPool {
  view: ViewFileRunner;
  /** Stops every worker; calls still queued or running fail. */
  close(): Promise<void>;
}

interface Job {
  request: ViewRequest;
  signal: AbortSignal | undefined;
  /** Answers the call as cancelled while it waits in the queue. */
  leaveQueue(): void;
  resolve(outcome: ViewFileOutcome): void;
  reject(error: Error): void;
}

/** What the current job of a busy worker does when the worker answers, fails or exits. */
interface Running {
  /** Another call ran or waited while this one ran: its time was shared, so a timeout says little about its file. */
  shared: boolean;
  answered(message: unknown): void;
  crashed(error: Error): void;
}

/**
 * view_file calls on `node:worker_threads`, so one slow file (resvg blurring a huge SVG runs for a minute,
 * synchronously) cannot block `read` and the other calls. A call over budget is answered with an `E_TIMEOUT`
 * error result and its worker terminated — the only way to stop WASM mid-run — and replaced on the next call.
 * A cancelled call (the client's AbortSignal) stops its worker the same way.
 */
export function createViewWorkerPool(options: ViewWorkerPoolOptions = {}): ViewWorkerPool {
  const {
    size = Math.min(2, availableParallelism()),
    timeoutMs = DEFAULT_VIEW_TIMEOUT_MS,
    workerUrl = siblingWorkerUrl(),
    fonts = [],
    systemFonts = true,
  } = options;
  const workerData: ViewWorkerData = { fonts: [...fonts], systemFonts };
  const idle: Worker[] = [];
  const busy = new Map<Worker, Running>();
  const queue: Job[] = [];
  let closed = false;

  function spawn(): Worker {
    const worker = new Worker(workerUrl, { workerData });
    worker.unref(); // an idle pool must not keep the process alive; the transport does while serving
    worker.on('message', (message: unknown) => busy.get(worker)?.answered(message));
    worker.on('error', (error) => busy.get(worker)?.crashed(error));
    worker.on('exit', (code) => {
      busy.get(worker)?.crashed(new Error(`the view_file worker exited with code ${code}`));
      if (idle.includes(worker)) idle.splice(idle.indexOf(worker), 1);
    });
    return worker;
  }

  function dispatch(): void {
    for (let job = queue[0]; job !== undefined && !closed; job = queue[0]) {
      const worker = idle.pop() ?? (busy.size < size ? spawn() : undefined);
      if (worker === undefined) return;
      queue.shift();
      run(worker, job);
    }
  }

  function run(worker: Worker, job: Job): void {
    job.signal?.removeEventListener('abort', job.leaveQueue);
    const finish = (keepWorker: boolean) => {
      clearTimeout(timer);
      job.signal?.removeEventListener('abort', onAbort);
      busy.delete(worker);
      if (keepWorker) idle.push(worker);
      else void worker.terminate();
      dispatch();
    };
    const onAbort = () => {
      finish(false);
      job.resolve(abortedOutcome(job.request));
    };
    const timer = setTimeout(() => {
      const { shared } = running;
      finish(false);
      job.resolve(timedOutOutcome(job.request, timeoutMs, shared));
    }, timeoutMs);
    for (const other of busy.values()) other.shared = true;
    const running: Running = {
      shared: busy.size > 0 || queue.length > 0,
      answered(message) {
        finish(true);
        if (!isViewReply(message)) job.reject(new Error('the view_file worker sent an unknown message'));
        else if (message.kind === 'failed')
          job.reject(Object.assign(new Error(message.message), { stack: message.stack }));
        else {
          try {
            job.resolve(outcomeFromReply(message));
          } catch (error) {
            job.reject(error instanceof Error ? error : new Error(String(error)));
          }
        }
      },
      crashed(error) {
        finish(false);
        job.reject(error);
      },
    };
    busy.set(worker, running);
    job.signal?.addEventListener('abort', onAbort, { once: true });
    worker.postMessage(job.request);
  }

  return {
    view(args, viewOptions, signal) {
      if (closed) return Promise.reject(new Error('the view_file worker pool is closed'));
      const request: ViewRequest = { args, options: viewOptions };
      if (signal?.aborted) return Promise.resolve(abortedOutcome(request));
      return new Promise<ViewFileOutcome>((resolve, reject) => {
        const job: Job = {
          request,
          signal,
          resolve,
          reject,
          leaveQueue() {
            if (queue.includes(job)) queue.splice(queue.indexOf(job), 1);
            resolve(abortedOutcome(request));
          },
        };
        signal?.addEventListener('abort', job.leaveQueue, { once: true });
        queue.push(job);
        for (const running of busy.values()) running.shared = true; // until a worker takes it, it waits on them
        dispatch();
      });
    },
    async close() {
      closed = true;
      for (const job of queue.splice(0)) job.reject(new Error('the view_file worker pool closed'));
      for (const running of [...busy.values()]) running.crashed(new Error('the view_file worker pool closed'));
      await Promise.all(idle.splice(0).map((worker) => worker.terminate()));
    },
  };
}

/** `mcp-worker.js` beside the running bundle (`mcp-worker.mjs` beside a `.mjs` one): scripts/build.mjs emits both. */
function siblingWorkerUrl(): URL {
  return new URL(`./mcp-worker${extname(fileURLToPath(import.meta.url))}`, import.meta.url);
}

function requestedName(request: ViewRequest): string {
  const { path } = request.args;
  return typeof path === 'string' && path !== '' ? basename(path) : 'the file';
}

/** Over budget: the file is blamed only when no other call ran or waited meanwhile (`shared`). */
function timedOutOutcome(request: ViewRequest, timeoutMs: number, shared: boolean): ViewFileOutcome {
  const limit = `${timeoutMs / 1000} s`;
  const text = shared
    ? `E_TIMEOUT: ${requestedName(request)} took longer than ${limit} to prepare while other view_file calls were ` +
      `running at the same time, so view_file stopped it (this server's limit, glimpse mcp --timeout-ms): ` +
      SHARED_TIME_ADVICE
    : `E_TIMEOUT: ${requestedName(request)} took longer than ${limit} to prepare, so view_file stopped it ` +
      `(this server's limit, glimpse mcp --timeout-ms). Try a simpler file (an SVG with fewer filters or shapes, ` +
      `fewer pages of a PDF), or export it to PNG or JPEG and view that.`;
  return { parts: [{ type: 'text', text }], isError: true };
}

function abortedOutcome(request: ViewRequest): ViewFileOutcome {
  return {
    parts: [{ type: 'text', text: `E_ABORTED: view_file of ${requestedName(request)} was cancelled.` }],
    isError: true,
  };
}
