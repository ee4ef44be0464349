import { describe, expect, it } from 'vitest';
import { MediaError } from '@glimpse/media';
import { failureNote } from '../results/notes.js';
import { viewFailure } from './view-file-failure.js';

const busy = new MediaError('E_BUSY', 'This isolate is busy: send it again after 2000 ms.', { retryAfterMs: 2000 });

describe('a busy host (E_BUSY) is retry-able, not a damaged file', () => {
  it('view_file tells the model to call again, with the hint, and says the file is fine', () => {
    const result = viewFailure(busy, ['[note]']);
    expect(result.isError).toBe(true);
    expect(result.parts).toEqual([
      {
        type: 'text',
        text: '[note]\nE_BUSY: The host was busy with other files; nothing is wrong with this one.\nCall view_file again with the same arguments in about 2 s.',
      },
    ]);
  });

  it("an attachment's note says to try again, not that the file is damaged", () => {
    const note = failureNote('photo.jpg', 'E_BUSY', busy.message);
    expect(note).toMatch(/^\[could not attach photo\.jpg: the host was busy .*try again shortly \(E_BUSY\)/);
    expect(note).not.toMatch(/damaged/);
  });
});
