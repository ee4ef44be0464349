// The set-up facts the README and docs/packages.md restate, read from where they are kept: the Debian
// packages from scripts/install-test-tools.sh, the supported Node from package.json's `engines`, the Node
// versions CI tests from scripts/install-node.sh.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
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

/** The Node versions CI tests, oldest first (install-node.sh --list). */
export const ciNodeVersions = (): string[] => listing('scripts/install-node.sh');

/** The `engines.node` of a package.json under the repository root. */
export function enginesNode(packageJson = 'package.json'): string | undefined {
  const manifest: unknown = JSON.parse(readFileSync(resolve(root, packageJson), 'utf8'));
  const engines = typeof manifest === 'object' && manifest !== null && 'engines' in manifest && manifest.engines;
  const node = typeof engines === 'object' && engines !== null && 'node' in engines && engines.node;
  return typeof node === 'string' ? node : undefined;
}

/** The oldest supported Node major: the root's `engines.node`, which must read `>=N`. */
export function supportedNodeMajor(): number {
  const range = enginesNode();
  const major = /^>=(\d+)$/.exec(range ?? '')?.[1];
  if (major === undefined) throw new Error(`package.json engines.node is ${range}; the docs expect ">=N"`);
  return Number(major);
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

export function nodeVersionsLine(): string {
  const tested = ciNodeVersions();
  const names = tested.length > 1 ? `${tested.slice(0, -1).join(', ')} and ${tested.at(-1)}` : tested.join('');
  return `Node ${supportedNodeMajor()} or newer and npm (\`engines\`: \`${enginesNode()}\`). CI tests Node ${names}.`;
}
