// The set-up facts the README and docs/testing.md restate, read from where they are kept: the Debian
// packages from scripts/install-test-tools.sh.
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const listing = (script: string) =>
  execFileSync('bash', [resolve(root, script), '--list'], { encoding: 'utf8' })
    .trimEnd()
    .split('\n');

/** Each Debian package `npm test` needs, with what the tests run from it (install-test-tools.sh --list). */
export function testTools(): { package: string; use: string }[] {
  return listing('scripts/install-test-tools.sh').map((line) => {
    const [name = '', use = ''] = line.split('\t');
    return { package: name, use };
  });
}

export const testToolsList = (): string =>
  testTools()
    .map((tool) => tool.package)
    .join(', ');

export function testToolsTable(): string {
  return [
    '| Debian package | what the tests run from it |',
    '| --- | --- |',
    ...testTools().map((tool) => `| ${tool.package} | ${tool.use} |`),
  ].join('\n');
}
