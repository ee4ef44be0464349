import { describe, expect, it } from 'vitest';
import { isMediaError, MediaError } from './errors.js';

describe('isMediaError', () => {
  it('knows a MediaError made by another copy of the module, which instanceof does not', async () => {
    // A second instance of errors.ts (a query makes the module loader evaluate it again), as a bundled CLI
    // beside an installed package gives one process.
    const secondCopy = './errors.js?second-copy';
    const copy: typeof import('./errors.js') = await import(secondCopy);
    const foreign = new copy.MediaError('E_CORRUPT', 'damaged');
    expect(copy.MediaError).not.toBe(MediaError);
    expect(foreign instanceof MediaError).toBe(false);
    expect(isMediaError(foreign)).toBe(true);
    expect(copy.isMediaError(new MediaError('E_TOO_LARGE', 'big'))).toBe(true);
  });

  it('says no to other errors and to look-alikes that only copy the fields', () => {
    expect(isMediaError(new Error('plain'))).toBe(false);
    expect(isMediaError({ name: 'MediaError', code: 'E_CORRUPT', message: 'x', details: {} })).toBe(false);
    expect(isMediaError(null)).toBe(false);
    expect(isMediaError('E_CORRUPT')).toBe(false);
  });

  it('brands with the code family under Symbol.for("glimpse.error"), out of what the error prints or compares as', () => {
    const error = new MediaError('E_UNSUPPORTED', 'unknown bytes', { bytes: 3 });
    expect(Reflect.get(error, Symbol.for('glimpse.error'))).toBe('media');
    expect(Object.getOwnPropertyDescriptor(error, Symbol.for('glimpse.error'))?.enumerable).toBe(false);
    expect(JSON.parse(JSON.stringify(error))).toEqual({
      name: 'MediaError',
      code: 'E_UNSUPPORTED',
      details: { bytes: 3 },
    });
    expect(error).toEqual(new MediaError('E_UNSUPPORTED', 'unknown bytes', { bytes: 3 }));
  });
});
