import { describe, expect, it } from 'vitest';
import { createViewWorkerPool } from './view-worker-pool.js';
import type { PortableViewOptions } from './view-worker-protocol.js';

// The silent worker never reads them.
const OPTIONS: PortableViewOptions = {
  root: '/desk',
  maxFileBytes: 1000,
  strict: false,
  capabilities: { imageInput: true, pdfInput: true, mediaInToolResults: true, preset: 'anthropic' },
};

// A worker that takes every call and never answers: each call runs into the pool's budget.
const SILENT_WORKER = new URL(
  `data:text/javascript,${encodeURIComponent("import { parentPort } from 'node:worker_threads'; parentPort.on('message', () => {});")}`,
);

async function textsOfTimeouts(size: number, paths: string[]): Promise<string[]> {
  const pool = createViewWorkerPool({ size, timeoutMs: 100, workerUrl: SILENT_WORKER, systemFonts: false });
  try {
    const outcomes = await Promise.all(paths.map((path) => pool.view({ path }, OPTIONS)));
    return outcomes.map((outcome) => {
      expect(outcome.isError).toBe(true);
      const [part] = outcome.parts;
      return part?.type === 'text' ? part.text : '';
    });
  } finally {
    await pool.close();
  }
}

describe('view worker pool: E_TIMEOUT', () => {
  it('a call that ran alone is told to try a simpler file', async () => {
    const [text] = await textsOfTimeouts(2, ['slow.svg']);
    expect(text).toMatch(/^E_TIMEOUT: slow\.svg took longer than 0\.1 s to prepare, so view_file stopped it/);
    expect(text).toContain('Try a simpler file');
  });

  it('calls that ran side by side are told the time was shared and that alone or later is likely to work', async () => {
    const texts = await textsOfTimeouts(2, ['a.jpg', 'b.jpg']);
    for (const text of texts) {
      expect(text).toMatch(/took longer than 0\.1 s to prepare while other view_file calls were running/);
      expect(text).toContain('Try it again on its own, or a little later');
      expect(text).not.toContain('Try a simpler file');
    }
  });

  it('a call with another queued behind it shares its time; the queued one, run alone, does not', async () => {
    const [first, second] = await textsOfTimeouts(1, ['a.jpg', 'b.jpg']);
    expect(first).toMatch(/^E_TIMEOUT: a\.jpg .*while other view_file calls were running/);
    expect(second).toMatch(/^E_TIMEOUT: b\.jpg .*Try a simpler file/);
  });
});
