// bin/glimpse.js turns on Node's compile cache in the OS temp folder; a temp folder where it cannot be made (under
// /proc, where Node's own "mkdir -p" loops forever at full CPU) must mean no cache, not a CLI that never returns.
import { spawnSync } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { version } from '../packages/agent/package.json';

const BIN = resolve('packages/agent/bin/glimpse.js');

function glimpseVersion(env: Record<string, string>) {
  const { NODE_COMPILE_CACHE: _, NODE_DISABLE_COMPILE_CACHE: __, ...inherited } = process.env;
  const started = Date.now();
  const run = spawnSync(process.execPath, [BIN, '--version'], {
    env: { ...inherited, ...env },
    encoding: 'utf8',
    timeout: 10_000,
  });
  return { status: run.status, signal: run.signal, stdout: run.stdout.trim(), ms: Date.now() - started };
}

describe('bin/glimpse.js: the compile cache', () => {
  it('runs (without a cache) when the temp folder is under /proc', () => {
    const run = glimpseVersion({ TMPDIR: '/proc/glimpse-no-such-dir' });
    expect(run).toMatchObject({ status: 0, signal: null, stdout: version });
  });

  it('runs when the temp folder is a file', () => {
    expect(glimpseVersion({ TMPDIR: '/etc/hostname' })).toMatchObject({ status: 0, stdout: version });
  });

  it('keeps the cache in node-compile-cache in the temp folder, and not with NODE_DISABLE_COMPILE_CACHE', async () => {
    const temp = await mkdtemp(join(tmpdir(), 'glimpse-compile-cache-'));
    try {
      expect(glimpseVersion({ TMPDIR: temp, NODE_DISABLE_COMPILE_CACHE: '1' })).toMatchObject({ status: 0 });
      expect(await readdir(temp)).toEqual([]);
      expect(glimpseVersion({ TMPDIR: temp })).toMatchObject({ status: 0, stdout: version });
      expect(await readdir(temp)).toEqual(['node-compile-cache']);
      expect((await readdir(join(temp, 'node-compile-cache'))).length).toBe(1); // Node's folder for its version
    } finally {
      await rm(temp, { recursive: true, force: true });
    }
  });
});
