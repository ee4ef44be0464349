// Every input the fuzzer ever flagged (test/fuzz/reproducers/: the input plus a JSON sidecar written by
// `npm run fuzz`) stays a test: it must now give a typed error or a sound output within the time limit,
// in a child process so a hang or crash fails the test instead of the run. A sidecar with `known` names a
// bug not fixed yet; its test is expected to fail (it.fails), so a fix shows up as a test to flip. One
// with `skip` is a slow input whose time depends on the machine (a hang at 5 s on a busy one).
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { ProcessOptions } from '@glimpse/media';
import { ChildRunner } from '../../scripts/fuzz/child-runner.js';

interface Sidecar {
  input: string;
  options: ProcessOptions;
  finding: string;
  detail: string;
  foundBy: string;
  /** Why this still fails, for a bug not fixed yet. */
  known?: string;
  /** Why it cannot run as a test yet (a slow input whose time depends on the machine's load). */
  skip?: string;
}

const directory = fileURLToPath(new URL('./reproducers/', import.meta.url));
const sidecars = readdirSync(directory)
  .filter((name) => name.endsWith('.json'))
  .sort()
  .map((name) => ({ name, ...(JSON.parse(readFileSync(directory + name, 'utf8')) as Sidecar) }));

describe('fuzz reproducers', () => {
  const runner = new ChildRunner(15_000);
  afterAll(() => runner.close());

  it('has reproducers to run', () => {
    expect(sidecars.length).toBeGreaterThan(0);
  });

  for (const sidecar of sidecars) {
    const test = sidecar.skip ? it.skip : sidecar.known ? it.fails : it;
    const note = sidecar.skip ? `, skipped: ${sidecar.skip}` : sidecar.known ? `, known: ${sidecar.known}` : '';
    test(`${sidecar.input} (${sidecar.finding}${note})`, async () => {
      const bytes = new Uint8Array(readFileSync(directory + sidecar.input));
      const verdict = await runner.run({ bytes, options: sidecar.options });
      expect(verdict.outcome === 'finding' ? `${verdict.finding}: ${verdict.detail}` : verdict.outcome).not.toMatch(
        /^(untyped-error|crash|hang|over-limit|strict-refused|chatter)/,
      );
    });
  }
});
