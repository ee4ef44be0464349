// npm 11's install-script policy: the root package.json's `allowScripts` names every dependency in the tree
// that has an install script (allowed or denied, docs/testing.md says why), and nothing else. npm reads the
// installed tree itself, so a dependency that brings a new script fails here as it fails `npm ci
// --strict-allow-scripts` in CI.
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const npm = (...args: string[]): unknown =>
  JSON.parse(execFileSync('npm', [...args, '--json'], { cwd: root, encoding: 'utf8' }));

describe('allowScripts', () => {
  it('leaves no install script in the tree unreviewed', () => {
    expect(npm('install-scripts', 'ls')).toEqual({ allowScripts: [] });
  });

  it('names no package that has no install script here', () => {
    expect(npm('install-scripts', 'prune', '--dry-run')).toEqual({ allowScripts: { removed: [], dryRun: true } });
  });
});
