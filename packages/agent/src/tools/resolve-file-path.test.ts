import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failsWith } from '../../../../test/support/typed-errors.js';
import { FileError } from '../fs/file-error.js';
import { MemoryFileSystem } from '../fs/memory-file-system.js';
import { nodeFileSystem } from '../fs/node-file-system.js';
import { resolveFilePath } from './resolve-file-path.js';
import { foldUnicodeSpaces } from './unicode-spaces.js';

const NNBSP = '\u202F';
const screenshot = `Screenshot 2026-11-29 at 10.41.07${NNBSP}PM.png`;

describe('foldUnicodeSpaces', () => {
  it('folds every space separator and nothing else', () => {
    const spaces = '\u00A0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200A\u202F\u205F\u3000';
    expect(foldUnicodeSpaces(`a${spaces}b`)).toBe(`a${' '.repeat(spaces.length)}b`);
    expect(foldUnicodeSpaces('tab\tzero\u200Bwidth')).toBe('tab\tzero\u200Bwidth');
  });
});

describe('resolveFilePath', () => {
  const fs = new MemoryFileSystem({
    files: {
      [`/shots/${screenshot}`]: new Uint8Array(1),
      '/shots/exact name.png': new Uint8Array(1),
      '/shots/exact\u00A0name.png': new Uint8Array(1),
      '/twins/a\u00A0b.txt': new Uint8Array(1),
      '/twins/a\u2009b.txt': new Uint8Array(1),
    },
    cwd: '/shots',
  });

  it('uses the exact name first, even when a look-alike exists', async () => {
    expect(await resolveFilePath(fs, 'exact name.png')).toEqual({ path: '/shots/exact name.png' });
    expect(await resolveFilePath(fs, 'exact\u00A0name.png')).toEqual({ path: '/shots/exact\u00A0name.png' });
  });

  it('finds a macOS screenshot named with a plain space, and says which file it read', async () => {
    const resolved = await resolveFilePath(fs, '/shots/Screenshot 2026-11-29 at 10.41.07 PM.png');
    expect(resolved.path).toBe(`/shots/${screenshot}`);
    expect(resolved.note).toContain('\\u{202F}PM.png');
  });

  it('finds a decomposed (macOS) name typed composed', async () => {
    const decomposed = new MemoryFileSystem({ files: { '/d/cafe\u0301 menu.png': new Uint8Array(1) } });
    expect((await resolveFilePath(decomposed, '/d/caf\u00e9\u00a0menu.png')).path).toBe('/d/cafe\u0301 menu.png');
  });

  it('refuses an ambiguous match and lists the candidates', async () => {
    const error = await failsWith(resolveFilePath(fs, '/twins/a b.txt'), FileError);
    expect(error.code).toBe('E_AMBIGUOUS_NAME');
    expect(error.details.candidates).toEqual(['a\u00A0b.txt', 'a\u2009b.txt']);
    expect(error.message).toContain('a\\u{A0}b.txt');
    expect(error.message).toContain('a\\u{2009}b.txt');
  });

  it('reports a missing file when nothing matches', async () => {
    expect((await failsWith(resolveFilePath(fs, 'nothing.png'), FileError)).code).toBe('E_FILE_NOT_FOUND');
  });

  it('refuses .. out of the root, and resolves relative paths against it', async () => {
    const rooted = new MemoryFileSystem({
      files: { '/work/a.txt': new Uint8Array(1), '/secret.txt': new Uint8Array(1) },
    });
    expect(await resolveFilePath(rooted, 'a.txt', { root: '/work' })).toEqual({ path: '/work/a.txt' });
    expect((await failsWith(resolveFilePath(rooted, '../secret.txt', { root: '/work' }), FileError)).code).toBe(
      'E_PATH_OUTSIDE_ROOT',
    );
    expect((await failsWith(resolveFilePath(rooted, '/secret.txt', { root: '/work' }), FileError)).code).toBe(
      'E_PATH_OUTSIDE_ROOT',
    );
  });

  it('names the root as an absolute path, even when given as "."', async () => {
    const rooted = new MemoryFileSystem({ files: { '/work/a.txt': new Uint8Array(1) }, cwd: '/work' });
    const error = await failsWith(resolveFilePath(rooted, '../secret.txt', { root: '.' }), FileError);
    expect(error.message).toBe(
      '../secret.txt is outside /work, the only directory these tools may read (the path leads out of it). Use a path inside it; relative paths start there.',
    );
  });
});

describe('resolveFilePath on a real disk', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'glimpse-root-'));
    await mkdir(join(dir, 'root'));
    await writeFile(join(dir, 'outside.txt'), 'secret');
    await writeFile(join(dir, 'root', 'inside.txt'), 'fine');
    await symlink(join(dir, 'outside.txt'), join(dir, 'root', 'escape.txt'));
    await symlink(dir, join(dir, 'root', 'up'));
    await symlink(join(dir, 'root', 'inside.txt'), join(dir, 'root', 'alias.txt'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('refuses a symlink that leads out of the root', async () => {
    const error = await failsWith(
      resolveFilePath(nodeFileSystem, 'escape.txt', { root: join(dir, 'root') }),
      FileError,
    );
    expect(error.code).toBe('E_PATH_OUTSIDE_ROOT');
    expect(error.message).toContain('symlink');
  });

  it('refuses a symlinked directory that leads out of the root', async () => {
    expect(
      (await failsWith(resolveFilePath(nodeFileSystem, 'up/outside.txt', { root: join(dir, 'root') }), FileError)).code,
    ).toBe('E_PATH_OUTSIDE_ROOT');
  });

  it('allows a symlink that stays inside', async () => {
    expect(await resolveFilePath(nodeFileSystem, 'alias.txt', { root: join(dir, 'root') })).toEqual({
      path: join(dir, 'root', 'alias.txt'),
    });
  });
});
