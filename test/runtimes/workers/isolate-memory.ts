// What a job costs a Worker in memory: the peak growth of the workerd process that runs it, over its idle
// size. That counts everything a Cloudflare isolate is charged for (the request body, the JS heap, every
// ArrayBuffer and WASM memory, compiled code, garbage not yet collected), not only the WASM memories that
// wasm-memory.ts sees. Only anonymous memory counts: pages of workerd's own executable that the job's code
// paths fault in for the first time (RssFile, 2 to 7 MB, depending on what start-up already touched) are
// shared by every isolate of the process and are no isolate's memory; counted, they made the phone HEIC
// read 46–48 MB at an idle of 86 MB and 51 MB at an idle of 81 MB. Linux only: it reads /proc/<pid>/status and
// resets the peak through clear_refs.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { Miniflare, MiniflareOptions } from 'miniflare';
import { postToWorker, type WorkerAnswer } from './worker-server.js';

/** A Worker's memory limit (Cloudflare's 128 MB per isolate). */
export const WORKER_LIMIT_BYTES = 128 * 2 ** 20;

export interface IsolatePeak {
  /** workerd's resident size after start-up and one trivial request, before the job. */
  idleBytes: number;
  /** The highest anonymous resident size during the job, minus the idle one. */
  peakGrowthBytes: number;
  /** Pages of workerd's executable the job faulted in (RssFile's growth), left out of `peakGrowthBytes`. */
  fileGrowthBytes: number;
  answer: WorkerAnswer;
}

/** The workerd process miniflare started for this process (the newest, if a previous one is still exiting). */
export function workerdPid(): number {
  let newest: { pid: number; started: number } | undefined;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // exited meanwhile
    }
    // pid (comm) state ppid … starttime is field 22; comm may hold spaces, so split after its ')'.
    const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (comm !== 'workerd' || Number(fields[1]) !== process.pid) continue;
    const started = Number(fields[19]);
    if (!newest || started > newest.started) newest = { pid: Number(entry), started };
  }
  if (!newest) throw new Error('no workerd child process found: is miniflare running?');
  return newest.pid;
}

type StatusField = 'VmRSS' | 'VmHWM' | 'RssAnon' | 'RssFile';

function status(pid: number): Record<StatusField, number> {
  const text = readFileSync(`/proc/${pid}/status`, 'utf8');
  const bytes = (field: StatusField) => {
    const match = new RegExp(`${field}:\\s*(\\d+) kB`).exec(text);
    if (!match) throw new Error(`/proc/${pid}/status has no ${field}`);
    return Number(match[1]) * 1024;
  };
  return { VmRSS: bytes('VmRSS'), VmHWM: bytes('VmHWM'), RssAnon: bytes('RssAnon'), RssFile: bytes('RssFile') };
}

/** workerd `pid`'s anonymous resident memory now (what the steady-load case samples between rounds). */
export function anonBytes(pid: number): number {
  return status(pid).RssAnon;
}

/** The peak growth of a workerd process's anonymous memory since `watchPeak` began, read by `stop`. */
export interface PeakWatch {
  idleBytes: number;
  stop(): { peakGrowthBytes: number; fileGrowthBytes: number };
}

/**
 * Starts watching workerd `pid` from its current (idle) size: resets its VmHWM and samples RssAnon every
 * 2 ms until `stop`.
 */
export function watchPeak(pid: number): PeakWatch {
  const idle = status(pid);
  writeFileSync(`/proc/${pid}/clear_refs`, '5'); // resets VmHWM to the current resident size
  // The kernel keeps no peak of anonymous memory alone. VmHWM less the file pages faulted in by the end
  // misses file pages that came after the anonymous peak; samples of RssAnon miss peaks shorter than
  // their interval. Each is at most the true peak, so the larger one is taken.
  let sampledAnon = idle.RssAnon;
  const sampler = setInterval(() => {
    sampledAnon = Math.max(sampledAnon, status(pid).RssAnon);
  }, 2);
  return {
    idleBytes: idle.VmRSS,
    stop() {
      clearInterval(sampler);
      const end = status(pid);
      const fileGrowthBytes = Math.max(0, end.RssFile - idle.RssFile);
      const peakGrowthBytes = Math.max(end.VmHWM - idle.VmRSS - fileGrowthBytes, sampledAnon - idle.RssAnon);
      return { peakGrowthBytes, fileGrowthBytes };
    },
  };
}

/**
 * Restarts workerd with `serverOptions` and has it serve one trivial request: what it grows by after is
 * the jobs'. `v8Flags` go to this workerd process only (miniflare reads MINIFLARE_WORKERD_V8_FLAGS each
 * time it assembles workerd's config, on every setOptions; the variable is put back after).
 */
export async function freshIsolate(
  miniflare: Miniflare,
  serverOptions: MiniflareOptions,
  v8Flags?: string,
): Promise<{ url: URL; pid: number }> {
  const before = process.env['MINIFLARE_WORKERD_V8_FLAGS'];
  if (v8Flags) process.env['MINIFLARE_WORKERD_V8_FLAGS'] = `${before ?? ''} ${v8Flags}`.trim();
  try {
    await miniflare.setOptions(serverOptions); // restarts workerd
  } finally {
    if (before === undefined) delete process.env['MINIFLARE_WORKERD_V8_FLAGS'];
    else process.env['MINIFLARE_WORKERD_V8_FLAGS'] = before;
  }
  const url = await miniflare.ready;
  const pid = workerdPid();
  await (await fetch(url)).arrayBuffer(); // the isolate has served a request: what remains is the job's
  return { url, pid };
}

/**
 * Runs one job in a fresh workerd process (a fresh isolate, as a new Worker instance gets) and measures
 * its peak memory growth. `options` are the process options POSTed with the input.
 */
export async function measureIsolatePeak(
  miniflare: Miniflare,
  serverOptions: MiniflareOptions,
  input: Uint8Array,
  options: object,
): Promise<IsolatePeak> {
  const { url, pid } = await freshIsolate(miniflare, serverOptions);
  const watch = watchPeak(pid);
  let answer: WorkerAnswer;
  let peak: ReturnType<PeakWatch['stop']>;
  try {
    answer = await postToWorker(url, input, options);
  } finally {
    peak = watch.stop();
  }
  return { idleBytes: watch.idleBytes, ...peak, answer };
}
