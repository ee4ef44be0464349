// What V8 itself counts for an isolate, read from workerd's --trace-gc-verbose output: the steady-load
// case's oracle (run-load-suite.ts, docs/runtimes.md "Steady load"). Cloudflare's 128 MB is the isolate's
// "JavaScript heap and WebAssembly allocations", V8's accounting, not the resident size of the process,
// which also holds workerd's native memory (its allocator's free pages, HTTP buffers, miniflare's own
// isolates). V8 traces every collection of every isolate as one line, `[pid:isolate] <ms> ms: <kind>
// <live> (<committed>) -> <live> (<committed>) MB, ... <reason>; ...`, and with --trace-gc-verbose a block
// of figures after it, two of which count memory outside the heap: "External memory reported" and
// "Backing store memory". Measured in workerd 1.20260730 (a Worker holding probe allocations, a forced
// collection after each): a 64 MB ArrayBuffer adds 64 MB to both; a 32 MB WebAssembly.Memory adds 32 MB
// to the external memory only, and growing it to 64 MB another 32 MB; dropped, each still counts at the
// collection that finds it dead (V8's sweeper frees it after the trace line) and is gone at the next. So
// the external memory reported holds every ArrayBuffer and WASM memory (and what workerd itself reports),
// and the backing stores are a part of it, not to be added again. Lines of different isolates may
// interleave (`[pid:isolate:thread]` lines are the heap controller's, not read), and the pipe delivers
// them in blocks that cut lines anywhere.

/** One collection of one isolate, with the block of figures V8 printed after it. */
export interface V8Collection {
  /** V8's isolate address (workerd runs miniflare's own isolates beside the Worker's). */
  isolate: string;
  /** `Scavenge`, `Mark-Compact`, `Minor Mark-Sweep`, with V8's qualifiers (`(reduce)`). */
  kind: string;
  /** Run by the Worker's own `gc()` (workerd with --expose-gc; V8's reason "testing"). */
  forced: boolean;
  /** Committed heap (V8's memory allocator) before the collection: the peak the heap reached. */
  heapBeforeBytes: number;
  /** Committed heap after it. */
  heapAfterBytes: number;
  /** Live objects after it. */
  liveAfterBytes: number;
  /** External memory reported, after it. */
  externalBytes: number;
  /** ArrayBuffer backing stores, after it (counted in `externalBytes` too). */
  backingStoreBytes: number;
}

/**
 * The isolate's size by V8's count at a collection, "JavaScript heap and WebAssembly allocations": the
 * committed heap at its largest (before the collection, or after when it grew) plus the external memory
 * reported (every ArrayBuffer and WASM memory; the backing stores are a part of it, so not added).
 */
export function isolateBytes(collection: V8Collection): number {
  return Math.max(collection.heapBeforeBytes, collection.heapAfterBytes) + collection.externalBytes;
}

/** The same after the collection (what it leaves): for the plateau between rounds. */
export function isolateBytesAfter(collection: V8Collection): number {
  return collection.heapAfterBytes + collection.externalBytes;
}

const PREFIX = /^\[\d+:(0x[0-9a-f]+)(:\d+)?\]\s+(.*)$/;
const COLLECTION = /^[\d.]+ ms: (.+?) ([\d.]+) \(([\d.]+)\) -> ([\d.]+) \(([\d.]+)\) MB, (.*)$/;
const FIGURE = /^(External memory reported|Backing store memory):\s+(-?\d+) KB$/;

type Open = Omit<V8Collection, 'externalBytes' | 'backingStoreBytes'> & { externalBytes?: number };

/** Reads workerd's stdout as it arrives; `write` each chunk, then read `collections`. */
export class V8Trace {
  /** Every collection whose block arrived whole, in the order V8 printed them. */
  readonly collections: V8Collection[] = [];
  /** Collections whose block never completed (a new collection of the same isolate came first). */
  incomplete = 0;
  readonly #open = new Map<string, Open>();
  #rest = '';

  /** Parses `chunk`; lines that are not V8's (the Worker's own output) go to `passOn`. */
  write(chunk: string, passOn: (line: string) => void = () => {}): void {
    const lines = (this.#rest + chunk).split('\n');
    this.#rest = lines.pop() ?? '';
    for (const line of lines) this.#line(line, passOn);
  }

  #line(line: string, passOn: (line: string) => void): void {
    const prefixed = PREFIX.exec(line);
    if (!prefixed) {
      if (line.trim() !== '') passOn(line);
      return;
    }
    const [, isolate, thread, text] = prefixed as unknown as [string, string, string | undefined, string];
    if (thread !== undefined) return;
    const collection = COLLECTION.exec(text);
    if (collection) {
      if (this.#open.has(isolate)) this.incomplete++;
      const [, kind, , before, liveAfter, after, rest] = collection as unknown as string[];
      const mb = (figure: string | undefined) => Number(figure) * 2 ** 20;
      this.#open.set(isolate, {
        isolate,
        kind: kind!,
        forced: /\btesting\b/.test(rest!),
        heapBeforeBytes: mb(before),
        heapAfterBytes: mb(after),
        liveAfterBytes: mb(liveAfter),
      });
      return;
    }
    const open = this.#open.get(isolate);
    const figure = FIGURE.exec(text.trim());
    if (!open || !figure) return;
    const bytes = Number(figure[2]) * 1024;
    if (figure[1] === 'External memory reported') open.externalBytes = bytes;
    else if (open.externalBytes !== undefined) {
      // The block's later figure of the two: the collection is complete.
      this.collections.push({ ...open, externalBytes: open.externalBytes, backingStoreBytes: bytes });
      this.#open.delete(isolate);
    }
  }

  /** The collections of the one isolate that ran forced ones (the Worker's: only it calls `gc()`). */
  workerCollections(): { isolate: string | undefined; collections: V8Collection[]; problem?: string } {
    const forcedBy = new Set(this.collections.filter(({ forced }) => forced).map(({ isolate }) => isolate));
    if (forcedBy.size !== 1) {
      const problem =
        forcedBy.size === 0
          ? "V8's trace holds no forced collection: the Worker's isolate is not in it"
          : `forced collections in ${forcedBy.size} isolates (${[...forcedBy].join(', ')}): which is the Worker's?`;
      return { isolate: undefined, collections: [], problem };
    }
    const [isolate] = forcedBy;
    return { isolate, collections: this.collections.filter((each) => each.isolate === isolate) };
  }
}
