// What V8 itself counts for an isolate, read from workerd's --trace-gc-verbose output (the load suite's
// LOAD_GC=1 diagnosis): after each forced full collection (`gc()`, traced as "testing"), the committed
// JavaScript heap, the ArrayBuffer backing stores (WASM memories among them) and the external memory
// reported to V8. Cloudflare's 128 MB is the isolate's "JavaScript heap and WebAssembly allocations",
// V8's accounting, not the resident size of the process, which also holds workerd's native memory
// (its allocator's free pages, HTTP buffers, other isolates) that the suite's anonymous-RSS samples count.
import type { Readable } from 'node:stream';

export interface V8Collection {
  /** V8's isolate address in the trace (workerd runs miniflare's own isolates beside the Worker's). */
  isolate: string;
  heapCommittedBytes: number;
  backingStoreBytes: number;
  externalBytes: number;
}

const LINE = /^\[\d+:(0x[0-9a-f]+)\]\s+(.*)$/;

/** Collects every forced full collection's figures from workerd's stdout (and passes other lines on). */
export function traceForcedCollections(stdout: Readable, stderr: Readable): V8Collection[] {
  const collections: V8Collection[] = [];
  const open = new Map<string, V8Collection>();
  let rest = '';
  stdout.setEncoding('utf8');
  stdout.on('data', (chunk: string) => {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) {
      const match = LINE.exec(line);
      if (!match) {
        if (line.trim() !== '') globalThis.process.stdout.write(`${line}\n`);
        continue;
      }
      const [, isolate, text] = match as unknown as [string, string, string];
      const forced = /Mark-Compact [\d.]+ \([\d.]+\) -> [\d.]+ \(([\d.]+)\) MB.*testing/.exec(text);
      if (forced) {
        const collection = {
          isolate,
          heapCommittedBytes: Number(forced[1]) * 2 ** 20,
          backingStoreBytes: 0,
          externalBytes: 0,
        };
        open.set(isolate, collection);
        continue;
      }
      const current = open.get(isolate);
      const kb = /^(External memory reported|Backing store memory):\s+(\d+) KB/.exec(text);
      if (current && kb) {
        if (kb[1] === 'External memory reported') current.externalBytes = Number(kb[2]) * 1024;
        else {
          current.backingStoreBytes = Number(kb[2]) * 1024;
          // The block's last figure this reads. workerd's stdout is a pipe, written in blocks: the last
          // collection's figures may come only after the report, so a collection counts once complete.
          collections.push(current);
          open.delete(isolate);
        }
      }
    }
  });
  stderr.pipe(globalThis.process.stderr);
  return collections;
}
