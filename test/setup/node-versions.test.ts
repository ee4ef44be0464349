// The supported Node version is one fact: the root package.json's `engines`. Every published package says
// the same, and CI (scripts/install-node.sh --list, which .ci/run runs the suite under) tests that line
// first. The README and docs/packages.md restate it through a generated block (test/docs.test.ts).
import { spawnSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PUBLISHED_PACKAGES } from '../../scripts/packages.mjs';
import { ciNodeVersions, enginesNode, supportedNodeMajor } from '../../scripts/docs/setup.js';

const root = resolve(import.meta.dirname, '../..');
const INSTALL_NODE = join(root, 'scripts/install-node.sh');
const major = (version: string) => Number(version.split('.')[0]);

describe('the supported Node versions', () => {
  it('are one range in the root and every published package.json', () => {
    expect(enginesNode()).toBe('>=22'); // Node 20 reached its end of life on 2026-04-30
    for (const { name } of PUBLISHED_PACKAGES)
      expect(enginesNode(`packages/${name}/package.json`), `packages/${name}`).toBe(enginesNode());
  });

  it('are what CI tests: the oldest supported line first, then each newer one', () => {
    const versions = ciNodeVersions();
    expect(versions.length).toBeGreaterThanOrEqual(2);
    for (const version of versions) expect(version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(major(versions[0] ?? '')).toBe(supportedNodeMajor());
    const majors = versions.map(major);
    expect(majors).toEqual([...majors].sort((a, b) => a - b));
    expect(new Set(majors).size).toBe(majors.length);
    expect(majors).toContain(24);
  });
});

describe('scripts/install-node.sh', () => {
  it('refuses a line CI does not test, naming the ones it does', () => {
    const run = spawnSync('bash', [INSTALL_NODE, '20'], { encoding: 'utf8' });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(`one of: ${ciNodeVersions().map(major).join(' ')}`);
  });

  it('prints the bin folder of a cached version without asking npm', async () => {
    const cache = await mkdtemp(join(tmpdir(), 'glimpse-node-cache-'));
    try {
      const version = ciNodeVersions().at(-1) ?? '';
      const bin = join(cache, version, 'bin');
      await mkdir(bin, { recursive: true });
      await writeFile(join(bin, 'node'), `#!/bin/bash\necho v${version}\n`);
      await chmod(join(bin, 'node'), 0o755);
      // No npm on this PATH: a fetch would fail.
      const env = { PATH: '/nonexistent', GLIMPSE_NODE_CACHE: cache };
      const run = spawnSync('/bin/bash', [INSTALL_NODE, String(major(version))], { encoding: 'utf8', env });
      expect(run.stderr).toBe('');
      expect(run.stdout).toBe(`${bin}\n`);
      expect(run.status).toBe(0);
    } finally {
      await rm(cache, { recursive: true, force: true });
    }
  });
});
