import { afterEach, describe, expect, it, vi } from 'vitest';
import { MediaError } from '@glimpse/media';
// Unchecked by the strict oracle (which would start a decoder per output of the 1,000 jobs): the outputs
// are not what this file tests.
import { configureMemoryGovernor, memoryGovernor, pdfText, process as fit, renderPdfPage } from '../entries/node.js';
import { assertStrictlyValid } from '../../../../test/support/strict-oracle.js';
import { MemoryGovernor } from './memory-governor.js';
import { idleInstances, MAX_IDLE_PER_MODULE } from './kernel-pool.js';
import { pooledMemories } from './memory-pool.js';
import * as make from '../../../../test/fixtures/make.js';
import { failsWith } from '../../../../test/support/typed-errors.js';

const MB = 2 ** 20;

/** A job that runs until `finish` is called, recording when it started. */
function heldJob(started: string[], name: string) {
  let finish: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  return {
    finish: () => finish(),
    run: async () => {
      started.push(name);
      await done;
      return name;
    },
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

afterEach(() => {
  vi.useRealTimers();
  configureMemoryGovernor(undefined);
});

describe('MemoryGovernor', () => {
  it('admits jobs in arrival order: a small one never overtakes a large one waiting before it', async () => {
    const governor = new MemoryGovernor({ maxConcurrentMemory: 100 * MB });
    const started: string[] = [];
    const a = heldJob(started, 'a 60');
    const b = heldJob(started, 'b 60');
    const c = heldJob(started, 'c 10');
    const runs = [
      governor.run({ estimateBytes: 60 * MB }, a.run),
      governor.run({ estimateBytes: 60 * MB }, b.run),
      governor.run({ estimateBytes: 10 * MB }, c.run),
    ];
    await settle();
    // c would fit beside a, but b came first and does not.
    expect(started).toEqual(['a 60']);
    expect(governor.state()).toMatchObject({ runningJobs: 1, queuedJobs: 2, admittedBytes: 60 * MB });
    a.finish();
    await settle();
    expect(started).toEqual(['a 60', 'b 60', 'c 10']);
    b.finish();
    c.finish();
    expect(await Promise.all(runs)).toEqual(['a 60', 'b 60', 'c 10']);
    expect(governor.state()).toEqual({
      runningJobs: 0,
      queuedJobs: 0,
      queuedBytes: 0,
      admittedBytes: 0,
      peakAdmittedBytes: 70 * MB,
    });
  });

  it('never lets the running estimates add up past the budget (200 jobs of random sizes, instrumented)', async () => {
    const budget = 80 * MB;
    const governor = new MemoryGovernor({ maxConcurrentMemory: budget, maxQueuedJobs: 1000 });
    let running = 0;
    let mostRunning = 0;
    let most = 0;
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const jobs = Array.from({ length: 200 }, () => {
      const estimate = Math.round((5 + random() * 50) * MB);
      return governor.run({ estimateBytes: estimate }, async () => {
        running += estimate;
        most = Math.max(most, running);
        mostRunning = Math.max(mostRunning, governor.state().runningJobs);
        await new Promise((resolve) => setTimeout(resolve, random() * 3));
        running -= estimate;
      });
    });
    await Promise.all(jobs);
    expect(most).toBeLessThanOrEqual(budget);
    expect(mostRunning).toBeGreaterThan(1); // it did run jobs side by side
    expect(governor.state().peakAdmittedBytes).toBe(most);
    expect(governor.state()).toMatchObject({ runningJobs: 0, queuedJobs: 0, admittedBytes: 0 });
  });

  it('runs a job over the budget alone, once nothing else runs, and starts nothing beside it', async () => {
    const governor = new MemoryGovernor({ maxConcurrentMemory: 50 * MB });
    const started: string[] = [];
    const small = heldJob(started, 'small');
    const huge = heldJob(started, 'huge');
    const after = heldJob(started, 'after');
    const runs = [
      governor.run({ estimateBytes: 10 * MB }, small.run),
      governor.run({ estimateBytes: 120 * MB }, huge.run),
      governor.run({ estimateBytes: 1 * MB }, after.run),
    ];
    await settle();
    expect(started).toEqual(['small']);
    small.finish();
    await settle();
    expect(started).toEqual(['small', 'huge']);
    expect(governor.state().runningJobs).toBe(1);
    huge.finish();
    after.finish();
    await Promise.all(runs);
    expect(started).toEqual(['small', 'huge', 'after']);
  });

  it('refuses with a retry-able E_BUSY at once when the queue is full', async () => {
    const governor = new MemoryGovernor({ maxConcurrentMemory: 10 * MB, maxQueuedJobs: 1 });
    const started: string[] = [];
    const first = heldJob(started, 'first');
    const running = governor.run({ estimateBytes: 10 * MB }, first.run);
    const queued = governor.run({ estimateBytes: 10 * MB }, async () => 'queued');
    const error = await failsWith(
      governor.run({ estimateBytes: 10 * MB }, async () => 'never'),
      MediaError,
      'E_BUSY',
    );
    expect(error.details).toMatchObject({ runningJobs: 1, queuedJobs: 1, maxConcurrentMemory: 10 * MB });
    expect(error.details['retryAfterMs']).toBeGreaterThanOrEqual(1000);
    expect(error.message).toMatch(/Nothing is wrong with the file: send it again after \d+ ms/);
    first.finish();
    expect(await running).toBe('first');
    expect(await queued).toBe('queued');
  });

  it('refuses with E_BUSY at once a job whose input would pass what the waiting jobs may hold', async () => {
    const governor = new MemoryGovernor({ maxConcurrentMemory: 20 * MB });
    expect(governor.maxQueuedBytes).toBe(10 * MB);
    const started: string[] = [];
    const first = heldJob(started, 'first');
    const running = governor.run({ estimateBytes: 20 * MB, inputBytes: 8 * MB }, first.run);
    const queued = governor.run({ estimateBytes: 20 * MB, inputBytes: 6 * MB }, async () => 'queued');
    expect(governor.state()).toMatchObject({ queuedJobs: 1, queuedBytes: 6 * MB });
    const error = await failsWith(
      governor.run({ estimateBytes: 1 * MB, inputBytes: 5 * MB }, async () => 'never'),
      MediaError,
      'E_BUSY',
    );
    expect(error.message).toMatch(/the 1 jobs waiting hold 6 MB of input, and this one's 5 MB would pass the 10 MB/);
    // A smaller one still fits in what is left.
    const small = governor.run({ estimateBytes: 1 * MB, inputBytes: 4 * MB }, async () => 'small');
    first.finish();
    expect(await Promise.all([running, queued, small])).toEqual(['first', 'queued', 'small']);
    expect(governor.state()).toMatchObject({ queuedJobs: 0, queuedBytes: 0, admittedBytes: 0 });
  });

  it('refuses with E_BUSY a job that waited maxWaitMs, and the jobs behind it move up', async () => {
    vi.useFakeTimers();
    const governor = new MemoryGovernor({ maxConcurrentMemory: 10 * MB, maxWaitMs: 5000 });
    const started: string[] = [];
    const first = heldJob(started, 'first');
    const running = governor.run({ estimateBytes: 10 * MB }, first.run);
    const waiting = governor.run({ estimateBytes: 10 * MB }, async () => 'waited').catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(4999);
    expect(governor.state().queuedJobs).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    const error = await waiting;
    expect(error).toBeInstanceOf(MediaError);
    expect(error).toMatchObject({ code: 'E_BUSY', details: { retryAfterMs: expect.any(Number) } });
    expect(governor.state()).toMatchObject({ runningJobs: 1, queuedJobs: 0 });
    first.finish();
    await running;
    expect(governor.state()).toMatchObject({ runningJobs: 0, admittedBytes: 0 });
  });

  it('releases the admission of a job that fails, and starts the next', async () => {
    const governor = new MemoryGovernor({ maxConcurrentMemory: 10 * MB });
    const failing = governor.run({ estimateBytes: 10 * MB }, async () => {
      await settle();
      throw new MediaError('E_CORRUPT', 'damaged');
    });
    const next = governor.run({ estimateBytes: 10 * MB }, async () => 'next');
    await failsWith(failing, MediaError, 'E_CORRUPT');
    expect(await next).toBe('next');
    expect(governor.state()).toMatchObject({ runningJobs: 0, queuedJobs: 0, admittedBytes: 0 });
  });

  it('refits an admission: lower gives memory back at once, higher is kept while it fits beside the others', async () => {
    const governor = new MemoryGovernor({ maxConcurrentMemory: 100 * MB });
    const first = await governor.admit({ estimateBytes: 60 * MB });
    const started: string[] = [];
    const second = heldJob(started, 'second 50');
    const waiting = governor.run({ estimateBytes: 50 * MB }, second.run);
    await settle();
    expect(started).toEqual([]);
    await first.refit({ estimateBytes: 40 * MB }); // the header said less than the declared length did
    await settle();
    expect(started).toEqual(['second 50']);
    expect(governor.state()).toMatchObject({ runningJobs: 2, admittedBytes: 90 * MB });
    await first.refit({ estimateBytes: 50 * MB }); // still fits: 100
    expect(governor.state().admittedBytes).toBe(100 * MB);
    second.finish();
    await waiting;
    first.release();
    first.release();
    expect(governor.state()).toMatchObject({
      runningJobs: 0,
      queuedJobs: 0,
      admittedBytes: 0,
      peakAdmittedBytes: 100 * MB,
    });
  });

  it('a refit past the budget gives its admission back and waits first in line: two growing jobs never wait on each other', async () => {
    const governor = new MemoryGovernor({ maxConcurrentMemory: 100 * MB });
    const a = await governor.admit({ estimateBytes: 50 * MB });
    const b = await governor.admit({ estimateBytes: 50 * MB });
    const later: string[] = [];
    const behind = governor.run({ estimateBytes: 10 * MB }, async () => later.push('behind'));
    // Both learn they need 80: neither fits beside the other. a gives its 50 back and waits at the head
    // (ahead of `behind`); b, now running alone, grows at once; a starts when b ends.
    let aGrew = false;
    const aRefit = a.refit({ estimateBytes: 80 * MB, inputBytes: 4 * MB }).then(() => {
      aGrew = true;
    });
    expect(governor.state()).toMatchObject({
      runningJobs: 1,
      queuedJobs: 2,
      queuedBytes: 4 * MB,
      admittedBytes: 50 * MB,
    });
    await b.refit({ estimateBytes: 80 * MB });
    expect(governor.state()).toMatchObject({ runningJobs: 1, admittedBytes: 80 * MB });
    await settle();
    expect(aGrew).toBe(false);
    b.release();
    await aRefit;
    expect(aGrew).toBe(true);
    await settle();
    expect(later).toEqual(['behind']); // behind a in line, and 80 + 10 fits: it starts with it
    a.release();
    await behind;
    expect(governor.state()).toMatchObject({ runningJobs: 0, queuedJobs: 0, queuedBytes: 0, admittedBytes: 0 });
    expect(governor.state().peakAdmittedBytes).toBe(100 * MB); // 50 + 50, then 80 alone, then 80 + 10
  });

  it('a refit that waits past maxWaitMs is E_BUSY, and its release after that is a no-op', async () => {
    vi.useFakeTimers();
    const governor = new MemoryGovernor({ maxConcurrentMemory: 100 * MB, maxWaitMs: 1000 });
    const holder = await governor.admit({ estimateBytes: 60 * MB });
    const grower = await governor.admit({ estimateBytes: 40 * MB });
    const refit = grower.refit({ estimateBytes: 70 * MB }).catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(1000);
    expect(await refit).toMatchObject({ code: 'E_BUSY' });
    grower.release();
    expect(governor.state()).toMatchObject({ runningJobs: 1, queuedJobs: 0, admittedBytes: 60 * MB });
    holder.release();
    expect(governor.state()).toMatchObject({ runningJobs: 0, admittedBytes: 0 });
  });

  it('refuses a budget or bound that is not an integer in range', () => {
    expect(() => new MemoryGovernor({ maxConcurrentMemory: 0 })).toThrow(/maxConcurrentMemory/);
    expect(() => new MemoryGovernor({ maxConcurrentMemory: 1, maxQueuedJobs: -1 })).toThrow(/maxQueuedJobs/);
    expect(() => new MemoryGovernor({ maxConcurrentMemory: 1, maxWaitMs: 1.5 })).toThrow(/maxWaitMs/);
    expect(() => new MemoryGovernor({ maxConcurrentMemory: 1, maxQueuedBytes: -2 })).toThrow(/maxQueuedBytes/);
  });
});

describe('process under a configured governor', () => {
  it('admits each job with its estimate and gives everything back: 1,000 jobs leave no admission and reuse their instances', async () => {
    const governor = configureMemoryGovernor({ maxConcurrentMemory: 80 * MB });
    expect(memoryGovernor()).toBe(governor);
    // The resize kernel (its own memory) is started from kept instances; the codecs (JPEG, PNG) import
    // theirs and get a fresh instance over a kept one of the pool: count what starts of the former, the
    // memories of the latter.
    const ownMemory: unknown[] = [];
    const memories = new Set<unknown>();
    const instantiate = WebAssembly.instantiate;
    const spy = vi.spyOn(WebAssembly, 'instantiate').mockImplementation((async (...args: unknown[]) => {
      const memory = (args[1] as { env?: { memory?: unknown } } | undefined)?.env?.memory;
      if (memory) memories.add(memory);
      else ownMemory.push(args[0]);
      return (instantiate as (...a: unknown[]) => Promise<WebAssembly.Instance>)(...args);
    }) as typeof WebAssembly.instantiate);
    const photo = await make.photoJpeg({ width: 600, height: 400 });
    const png = await make.screenshotPng({ width: 500, height: 300 });
    const corrupt = photo.slice(0, 300);
    let fitted = 0;
    let refused = 0;
    for (let round = 0; round < 100; round++) {
      const batch = Array.from({ length: 10 }, (_, i) => {
        const input = i === 9 ? corrupt : i % 2 === 0 ? photo : png;
        return fit(input, { maxEdge: 200, maxBytes: 20_000 }).then(
          () => fitted++,
          (error: unknown) => {
            expect(error).toMatchObject({ code: 'E_CORRUPT' });
            refused++;
          },
        );
      });
      await Promise.all(batch);
    }
    expect(fitted + refused).toBe(1000);
    expect(refused).toBe(100);
    expect(governor?.state()).toMatchObject({ runningJobs: 0, queuedJobs: 0, admittedBytes: 0 });
    // Resize instances that finished cleanly were reused: far fewer started than the 900 resizes, and
    // the codecs' 2,000+ calls ran over a few memories, as many as ran at once.
    spy.mockRestore();
    expect(ownMemory.length).toBeLessThan(300);
    expect(memories.size).toBeLessThanOrEqual(6); // 3 such jobs fit in 80 MB at once, each decoding and encoding
    expect(pooledMemories()).toMatchObject({ inUse: 0 });
    for (const idle of Object.values(idleInstances())) expect(idle).toBeLessThanOrEqual(MAX_IDLE_PER_MODULE);
  });

  it('admits renderPdfPage and pdfText too, with PDFium at its memory cap: E_BUSY while the isolate is full', async () => {
    const governor = configureMemoryGovernor({ maxConcurrentMemory: 100 * MB, maxQueuedJobs: 0 })!;
    const pdf = await make.pdf({ pages: 2 });
    const holder = await governor.admit({ estimateBytes: 40 * MB }); // 40 + 64 is past 100
    await failsWith(renderPdfPage(pdf, 1, { maxMemory: 64 * MB }), MediaError, 'E_BUSY');
    await failsWith(pdfText(pdf, { maxMemory: 64 * MB }), MediaError, 'E_BUSY');
    holder.release();
    const page = await renderPdfPage(pdf, 2, { maxMemory: 64 * MB });
    assertStrictlyValid(page.data, page.mediaType);
    expect((await pdfText(pdf, { maxMemory: 64 * MB })).pageCount).toBe(2);
    // Each was admitted alone with at least PDFium's 64 MiB, and gave it back.
    expect(governor.state().peakAdmittedBytes).toBeGreaterThanOrEqual(64 * MB + pdf.byteLength * 2);
    expect(governor.state()).toMatchObject({ runningJobs: 0, queuedJobs: 0, admittedBytes: 0 });
  });
});

describe('configureMemoryGovernor and the retry hint', () => {
  afterEach(() => {
    configureMemoryGovernor(undefined);
    vi.useRealTimers();
  });

  it('a partial call keeps the values of the governor in use for the fields it does not give', () => {
    configureMemoryGovernor({ maxConcurrentMemory: 80 * MB, maxQueuedBytes: 16 * MB, maxQueuedJobs: 5 });
    const changed = configureMemoryGovernor({ maxWaitMs: 10_000 })!;
    expect(changed).toMatchObject({
      maxConcurrentMemory: 80 * MB,
      maxQueuedBytes: 16 * MB,
      maxQueuedJobs: 5,
      maxWaitMs: 10_000,
    });
    expect(configureMemoryGovernor({ maxConcurrentMemory: 40 * MB })).toMatchObject({
      maxConcurrentMemory: 40 * MB,
      maxWaitMs: 10_000,
      maxQueuedJobs: 5,
    });
    // With none in use, the budget is required.
    configureMemoryGovernor(undefined);
    expect(() => configureMemoryGovernor({ maxWaitMs: 10_000 })).toThrow(
      /needs maxConcurrentMemory when no governor is in use/,
    );
    expect(configureMemoryGovernor({ maxConcurrentMemory: 8 * MB })).toMatchObject({
      maxWaitMs: 30_000,
      maxQueuedJobs: 32,
      maxQueuedBytes: 4 * MB,
    });
  });

  it('maxQueuedJobs 0 is no queue: a job that cannot start at once is E_BUSY at once', async () => {
    const governor = new MemoryGovernor({ maxConcurrentMemory: 10 * MB, maxQueuedJobs: 0 });
    const held = await governor.admit({ estimateBytes: 8 * MB });
    await failsWith(governor.admit({ estimateBytes: 8 * MB }), MediaError, 'E_BUSY');
    expect((await governor.admit({ estimateBytes: 1 * MB })).release).toBeTypeOf('function'); // fits beside it
    held.release();
  });

  it("the retry hint counts how long a running job has held its admission so far, not only finished jobs' average", async () => {
    vi.useFakeTimers();
    const governor = new MemoryGovernor({ maxConcurrentMemory: 10 * MB, maxQueuedJobs: 0, maxWaitMs: 60_000 });
    for (let i = 0; i < 3; i++) (await governor.admit({ estimateBytes: 1 * MB })).release(); // quick jobs: average 0
    const slow = await governor.admit({ estimateBytes: 10 * MB });
    vi.advanceTimersByTime(20_000);
    const busy = await failsWith(governor.admit({ estimateBytes: 1 * MB }), MediaError, 'E_BUSY');
    expect(busy.details['retryAfterMs']).toBeGreaterThanOrEqual(20_000);
    expect(busy.details['retryAfterMs']).toBeLessThanOrEqual(60_000);
    slow.release();
  });
});
