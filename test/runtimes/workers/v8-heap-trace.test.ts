// The steady-load case's reader of V8's trace (v8-heap-trace.ts), over lines in the format workerd's V8
// prints them (from a --trace-gc-verbose run, blocks shortened to the lines it reads and a few around).
import { describe, expect, it } from 'vitest';
import { isolateBytes, isolateBytesAfter, V8Trace } from './v8-heap-trace.js';

const WORKER = '0x2c4800150000';
const OTHER = '0x2c4800010000';

/** One collection's line and its block of figures, as workerd's V8 prints them (a probe run's, figures changed). */
function traced(isolate: string, line: string, externalKb: number, backingKb: number): string {
  const at = `[25135:${isolate}]`;
  return [
    `${at} Shrinking page 0x11abffe0e600: end 0x369400200000 -> 0x3694001d9000`,
    `${at}     ${line}`,
    `${at} Memory allocator,           used:   9216 KB, available:  1531136 KB`,
    `${at} Old space,                  used:    209 KB, available:*      45 KB, committed:    256 KB`,
    `${at} All spaces,                 used:   2100 KB, available:* 1533229 KB, committed:   9216 KB`,
    `${at} Pool buffering    0 chunk(s) of committed:       0 KB`,
    `${at} External memory reported:                    ${externalKb} KB`,
    `${at} Backing store memory:                        ${backingKb} KB`,
    `${at} External memory global:                          0 KB`,
    `${at} Total time spent in GC:                        0.7 ms`,
    `${at} (*) Sweeping is still in progress, making available sizes inaccurate.`,
    `[25135:${isolate}:0]      130 ms: [HeapController] factor 1.1 based on mu=0.970, speed_ratio=299 (gc=288758, mutator=967)`,
    '',
  ].join('\n');
}

const scavenge = traced(
  WORKER,
  '1804 ms: Scavenge 21.4 (30.2) -> 12.1 (27.5) MB, pooled: 0.0 MB, 1.92 / 0.00 ms (average mu = 0.990, current mu = 0.985) allocation failure; ',
  61_440,
  20_480,
);
const forced = traced(
  WORKER,
  '2210 ms: Mark-Compact (reduce) 12.6 (27.9) -> 2.2 (9.0) MB, pooled: 0.5 MB, 8.31 / 0.01 ms (average mu = 0.981, current mu = 0.975) testing; GC in old space requested',
  73_728,
  22_528,
);
const other = traced(
  OTHER,
  '2300 ms: Mark-Compact 3.1 (4.5) -> 2.9 (4.5) MB, pooled: 0.0 MB, 2.00 / 0.00 ms (average mu = 0.999, current mu = 0.999) idle task; ',
  1024,
  512,
);

describe("V8's trace of the Worker's isolate", () => {
  it('reads each collection with its figures, however the pipe cuts the text into chunks', () => {
    const text = `worker says hello\n${scavenge}${other}${forced}`;
    for (const size of [1, 7, 64, 4096, text.length]) {
      const trace = new V8Trace();
      const passed: string[] = [];
      for (let at = 0; at < text.length; at += size)
        trace.write(text.slice(at, at + size), (line) => passed.push(line));
      expect(passed).toEqual(['worker says hello']);
      expect(trace.incomplete).toBe(0);
      expect(trace.collections).toEqual([
        {
          isolate: WORKER,
          kind: 'Scavenge',
          forced: false,
          heapBeforeBytes: 30.2 * 2 ** 20,
          heapAfterBytes: 27.5 * 2 ** 20,
          liveAfterBytes: 12.1 * 2 ** 20,
          externalBytes: 61_440 * 1024,
          backingStoreBytes: 20_480 * 1024,
        },
        expect.objectContaining({ isolate: OTHER, kind: 'Mark-Compact', forced: false }),
        expect.objectContaining({ isolate: WORKER, kind: 'Mark-Compact (reduce)', forced: true }),
      ]);
    }
  });

  it('counts the committed heap at its largest plus the external memory, and after the collection what it left', () => {
    const trace = new V8Trace();
    trace.write(scavenge + forced);
    const [during, after] = trace.collections;
    expect(isolateBytes(during!)).toBe(30.2 * 2 ** 20 + 60 * 2 ** 20);
    expect(isolateBytes(after!)).toBe(27.9 * 2 ** 20 + 72 * 2 ** 20);
    expect(isolateBytesAfter(after!)).toBe(9 * 2 ** 20 + 72 * 2 ** 20);
  });

  it('takes the isolate that ran forced collections as the Worker’s, and refuses a trace without one', () => {
    const trace = new V8Trace();
    trace.write(scavenge + other + forced);
    const { isolate, collections, problem } = trace.workerCollections();
    expect(problem).toBeUndefined();
    expect(isolate).toBe(WORKER);
    expect(collections.map(({ kind }) => kind)).toEqual(['Scavenge', 'Mark-Compact (reduce)']);

    const none = new V8Trace();
    none.write(scavenge + other);
    expect(none.workerCollections()).toMatchObject({ isolate: undefined, collections: [] });
    expect(none.workerCollections().problem).toMatch(/no forced collection/);

    const two = new V8Trace();
    two.write(forced + forced.replaceAll(WORKER, OTHER));
    expect(two.workerCollections().problem).toMatch(/in 2 isolates/);
  });

  it('counts a collection whose block never came whole, and keeps a block not yet arrived out', () => {
    const trace = new V8Trace();
    const line = scavenge.split('\n').find((each) => each.includes('ms: Scavenge'));
    trace.write(`${line}\n${forced}`);
    expect(trace.incomplete).toBe(1);
    expect(trace.collections).toHaveLength(1);
    const cut = forced.slice(0, forced.indexOf('Backing store'));
    const waiting = new V8Trace();
    waiting.write(cut);
    expect(waiting.collections).toHaveLength(0);
    waiting.write(forced.slice(cut.length));
    expect(waiting.collections).toHaveLength(1);
  });
});
