// `glimpse session import` of a log whose writer was killed mid-append (stranger review of issue 28): the torn
// last line is left out, as every reader does, and now said so on stderr with its line and bytes; exit 0 as for
// `glimpse session FILE` (docs/sessions.md), and the target holds every committed entry and nothing of the tail.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '../packages/agent/src/cli/main.js';
import { parseSession } from '../packages/agent/src/session/parse-session.js';
import { SessionWriter } from '../packages/agent/src/session/session-writer.js';
import { captureOutput } from './support/capture-output.js';

let dir: string;
let whole: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'glimpse-import-torn-'));
  whole = join(dir, 'whole.jsonl');
  const writer = await SessionWriter.open(whole, { app: { name: 'import-torn-test' } });
  for (let i = 0; i < 3; i++) await writer.append({ role: 'user', parts: [{ type: 'text', text: `turn ${i}` }] });
  await writer.close();
});

afterAll(() => rm(dir, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

describe('glimpse session import of a torn log', () => {
  it('leaves the torn line out and says so on stderr: its line, its bytes, why; exit 0', async () => {
    const torn = join(dir, 'torn.jsonl');
    const tail = '{"type":"message","at":"2026-12-03T15:00:00.000Z","message":{"role":"user","par';
    await writeFile(torn, `${await readFile(whole, 'utf8')}${tail}`);
    const target = join(dir, 'imported.jsonl');
    const io = captureOutput();
    expect(await main(['session', 'import', torn, '--to', target])).toBe(0);
    vi.restoreAllMocks();
    expect(io.stdout.join('')).toBe(`imported 3 entries from ${torn} into ${target}\n`);
    expect(io.stderr.join('')).toBe(
      `glimpse session import: warning: ${torn} ends in a torn line 5 (${tail.length} bytes, no newline: a writer stopped mid-append, so it was never committed); that 1 line is left out, only the 3 committed entries are imported\n`,
    );
    const copied = parseSession(await readFile(target));
    expect(copied.tornTail).toBeUndefined();
    expect(copied.messages).toEqual(parseSession(await readFile(whole)).messages);
  });

  it('says nothing on stderr for a whole log', async () => {
    const io = captureOutput();
    expect(await main(['session', 'import', whole, '--to', join(dir, 'whole-copy.jsonl')])).toBe(0);
    vi.restoreAllMocks();
    expect(io.stderr.join('')).toBe('');
  });

  it('a target that cannot be opened fails with E_SESSION_STORE and no "are imported" warning before it', async () => {
    const torn = join(dir, 'torn-missing.jsonl');
    await writeFile(torn, `${await readFile(whole, 'utf8')}{"type":"message","at":"2026`);
    const io = captureOutput();
    const code = await main(['session', 'import', torn, '--to', `pglite:${join(dir, 'missing', 'db')}#s1`]);
    vi.restoreAllMocks();
    expect(code).not.toBe(0);
    const stderr = io.stderr.join('');
    expect(stderr).toMatch(/E_SESSION_STORE/);
    expect(stderr).not.toMatch(/are imported|torn line/);
    expect(io.stdout.join('')).toBe('');
  });
});
