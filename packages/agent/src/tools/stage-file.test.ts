import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { failsWith } from '../../../../test/support/typed-errors.js';
import { FileError } from '../fs/file-error.js';
import { MemoryFileSystem } from '../fs/memory-file-system.js';
import { stageFile } from './stage-file.js';

describe('stageFile', () => {
  it('writes uploads with Unicode spaces folded, so the listing matches what a model types', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'glimpse-stage-'));
    try {
      const path = await stageFile(dir, 'Screenshot 2026-11-29 at 10.41.07\u202FPM.png', new Uint8Array([1, 2, 3]));
      expect(path).toBe(join(dir, 'Screenshot 2026-11-29 at 10.41.07 PM.png'));
      expect(await readdir(dir)).toEqual(['Screenshot 2026-11-29 at 10.41.07 PM.png']);
      expect([...(await readFile(path))]).toEqual([1, 2, 3]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses names that would leave the directory', async () => {
    const fileSystem = new MemoryFileSystem({ files: { '/uploads/keep': new Uint8Array(0) } });
    for (const name of ['../evil.png', 'a/b.png', '..', '', 'a\\b.png', 'bell\u0007.png']) {
      await failsWith(stageFile('/uploads', name, new Uint8Array(1), { fileSystem }), FileError, 'E_INVALID_NAME');
    }
    expect(await stageFile('/uploads', 'a\u00A0b.png', new Uint8Array(1), { fileSystem })).toBe('/uploads/a b.png');
  });
});
