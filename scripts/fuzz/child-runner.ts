// Runs fuzz inputs in a child process with a time limit: a hang is cut off (the child is killed and a
// new one started), a crash is reported with the child's exit status and last words.
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ProcessOptions } from '@glimpse/media';
import type { Verdict } from './verdict.js';

const RUN_TS = fileURLToPath(new URL('../run-ts.mjs', import.meta.url));
const CHILD = fileURLToPath(new URL('./child.ts', import.meta.url));

type Request =
  | { bytes: Uint8Array; options: ProcessOptions; returnData?: boolean }
  | { selfTest: 'hang' | 'throw' | 'exit' };

export class ChildRunner {
  private child: ChildProcess | undefined;
  private ready: Promise<ChildProcess> | undefined;
  private stderrTail = '';
  /** The first input after a start also pays for loading codecs: it gets this much extra time. */
  private warm = false;
  private static readonly WARM_UP_MS = 30_000;
  /** How many children were started (the first, plus one after each hang or crash). */
  starts = 0;

  constructor(private readonly timeoutMs: number) {}

  private start(): Promise<ChildProcess> {
    this.starts++;
    this.warm = false;
    const child = fork(RUN_TS, [CHILD], { serialization: 'advanced', stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
    this.stderrTail = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString()).slice(-2000);
    });
    this.child = child;
    return new Promise((resolve, reject) => {
      child.once('message', () => resolve(child));
      child.once('exit', (code, signal) =>
        reject(new Error(`fuzz child did not start (exit ${code ?? signal}): ${this.stderrTail}`)),
      );
    });
  }

  /** The verdict on one input; hangs and crashes come back as findings, never as exceptions. */
  async run(request: Request): Promise<Verdict> {
    this.ready ??= this.start();
    const child = await this.ready;
    const started = performance.now();
    const limit = this.timeoutMs + (this.warm ? 0 : ChildRunner.WARM_UP_MS);
    this.warm = true;
    return new Promise<Verdict>((resolve) => {
      const finish = (verdict: Verdict) => {
        clearTimeout(timer);
        child.off('message', onMessage);
        child.off('exit', onExit);
        resolve(verdict);
      };
      const onMessage = (verdict: Verdict) => finish(verdict);
      const onExit = (code: number | null, signal: string | null) => {
        this.ready = undefined;
        finish({
          outcome: 'finding',
          finding: 'crash',
          detail: `child exited (${code ?? signal}): ${this.stderrTail.trim().slice(-500)}`,
          milliseconds: Math.round(performance.now() - started),
        });
      };
      const timer = setTimeout(() => {
        child.off('exit', onExit);
        child.kill('SIGKILL');
        this.ready = undefined;
        finish({ outcome: 'finding', finding: 'hang', detail: `no answer within ${limit} ms`, milliseconds: limit });
      }, limit);
      child.on('message', onMessage);
      child.once('exit', onExit);
      child.send(request);
    });
  }

  close(): void {
    this.child?.kill('SIGKILL');
    this.child = undefined;
    this.ready = undefined;
  }
}
