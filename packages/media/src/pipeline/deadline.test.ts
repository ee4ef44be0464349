import { describe, expect, it } from 'vitest';
import { MediaError, process as fit } from '@glimpse/media';
import type { DecodeJob } from './decode-to-fit.js';
import { afterAdmission, type Deadline, deadlineAfter, NO_DEADLINE } from '../runtime/deadline.js';
import { decodeToFit } from './decode-to-fit.js';
import * as make from '../../../../test/fixtures/make.js';
import { failsWith } from '../../../../test/support/typed-errors.js';

describe('process: timeoutMs', () => {
  it('ends with E_TIMEOUT between stages once the budget is spent, naming the stage it stopped before', async () => {
    const photo = await make.photoJpeg({ width: 3000, height: 2000 });
    const error = await failsWith(fit(photo, { maxEdge: 500, timeoutMs: 1 }), MediaError, 'E_TIMEOUT');
    expect(error.details).toMatchObject({ timeoutMs: 1 });
    expect(error.message).toMatch(
      /^(Reading the file's header|Decoding the image) took longer than 1 ms, so it was stopped/,
    );
  });

  it('does not fire within the budget', async () => {
    const photo = await make.photoJpeg({ width: 600, height: 400 });
    expect((await fit(photo, { maxEdge: 300, timeoutMs: 60_000 })).width).toBe(300);
  });

  it('refuses a timeoutMs that is not a positive integer', async () => {
    const photo = await make.photoJpeg();
    for (const timeoutMs of [0, -5, 1.5, Number.NaN]) {
      await expect(fit(photo, { timeoutMs })).rejects.toMatchObject({ code: 'E_INVALID_OPTIONS' });
    }
  });
});

describe('decodeToFit: the deadline between bands of rows', () => {
  it('stops a streaming decoder at the first band after the budget is spent, not after the whole image', async () => {
    let checks = 0;
    const deadline: Deadline = {
      timeoutMs: 1,
      check(what) {
        if (++checks > 3) throw new MediaError('E_TIMEOUT', `${what} took too long`);
      },
    };
    let bandsDecoded = 0;
    const decode = async ({ sink }: DecodeJob) => {
      sink.start({ width: 8, height: 100, mayHaveAlpha: false });
      for (let band = 0; band < 10; band++) {
        bandsDecoded++;
        sink.write(new Uint8Array(8 * 10 * 4), 10);
      }
      return { hasAlpha: false, lossless: true };
    };
    const stored = { width: 8, height: 100 };
    const request = { decode, bytes: new Uint8Array(), stored, fitted: stored, orientation: 1 as const };
    await expect(decodeToFit({ ...request, deadline })).rejects.toMatchObject({ code: 'E_TIMEOUT' });
    expect(bandsDecoded).toBe(4);
    expect((await decodeToFit(request)).raster.height).toBe(100); // without a deadline, all ten bands
  });
});

describe('timeoutMs under concurrency', () => {
  it('a lone job that times out is said to be slow to decode', async () => {
    const photo = await make.photoJpeg({ width: 3000, height: 2000 });
    const error = await failsWith(fit(photo, { maxEdge: 500, timeoutMs: 1 }), MediaError, 'E_TIMEOUT');
    expect(error.message).toMatch(/The file may be built to be slow/);
    expect(error.details['sharedWithOtherJobs']).toBeUndefined();
  });

  it('jobs in flight together do not blame their files: the process was busy, run fewer or wait longer', async () => {
    const photo = await make.photoJpeg({ width: 3000, height: 2000 });
    const outcomes = await Promise.allSettled(
      Array.from({ length: 8 }, () => fit(photo, { maxEdge: 500, timeoutMs: 1 })),
    );
    for (const outcome of outcomes) {
      expect(outcome.status).toBe('rejected');
      const error = (outcome as PromiseRejectedResult).reason as MediaError;
      expect(error.code).toBe('E_TIMEOUT');
      expect(error.details['sharedWithOtherJobs']).toBe(true);
      expect(error.message).not.toMatch(/built to be slow/);
      expect(error.message).toMatch(/while other jobs were running in this process.*run fewer jobs at once/);
    }
  });

  it('jobs without a budget running beside a timed one count as other jobs: the timeout does not blame its file', () => {
    const timed = deadlineAfter(1);
    NO_DEADLINE.check('Decoding the image'); // an untimed job's step, between two of the timed job's
    const until = Date.now() + 5;
    while (Date.now() <= until) {} // the timed job's own step overruns its budget
    const error = (() => {
      try {
        timed.check('Decoding the image');
      } catch (caught) {
        return caught as MediaError;
      }
    })();
    expect(error?.code).toBe('E_TIMEOUT');
    expect(error?.details['sharedWithOtherJobs']).toBe(true);
    expect(error?.message).not.toMatch(/built to be slow/);
  });

  it('a timed job beside untimed process() calls is told the time was shared', async () => {
    const photo = await make.photoJpeg({ width: 3000, height: 2000 });
    const [timed] = await Promise.allSettled([
      fit(photo, { maxEdge: 500, timeoutMs: 1 }),
      ...Array.from({ length: 3 }, () => fit(photo, { maxEdge: 500 })),
    ]);
    const error = (timed as PromiseRejectedResult).reason as MediaError;
    expect(error.code).toBe('E_TIMEOUT');
    expect(error.details['sharedWithOtherJobs']).toBe(true);
  });

  it('the time a job waits for admission is not counted', async () => {
    const deadline = deadlineAfter(40);
    const job = afterAdmission(deadline, async () => deadline.check('Decoding the image'));
    await new Promise((resolve) => setTimeout(resolve, 80)); // queued behind other jobs
    await expect(job()).resolves.toBeUndefined();
    expect(() => deadlineAfter(40).check('x')).not.toThrow();
  });
});
