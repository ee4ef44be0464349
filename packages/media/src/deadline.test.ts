import { describe, expect, it } from 'vitest';
import { process as fit } from '@glimpse/media';
import * as make from '../../../test/fixtures/make.js';

describe('process: timeoutMs', () => {
  it('ends with E_TIMEOUT between stages once the budget is spent, naming the stage it stopped before', async () => {
    const photo = await make.photoJpeg({ width: 3000, height: 2000 });
    const error = await fit(photo, { maxEdge: 500, timeoutMs: 1 }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'E_TIMEOUT', details: { timeoutMs: 1 } });
    expect((error as Error).message).toMatch(
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
