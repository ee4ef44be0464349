// The issue-28 acceptance: the demo logged twice (the second run resumes) to a JSONL file, to pglite: and to
// postgres:// gives the same `glimpse session` summary; a writer killed with SIGKILL reads back with every
// acknowledged entry; each database holds every unique medium's bytes once, as bytes.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '../packages/agent/src/cli/main.js';
import { openPgClient } from '../packages/agent/src/session/pg-client.js';
import { openPGliteClient } from '../packages/agent/src/session/pglite-client.js';
import type { SqlClient } from '../packages/agent/src/session/sql-client.js';
import { openSessionStore } from '../packages/agent/src/session/open-session-store.js';
import { parseSessionLocation } from '../packages/agent/src/session/session-location.js';
import { captureOutput } from './support/capture-output.js';
import { crashEntry } from './fixtures/session-crash-entry.js';
import { DATABASE_URL, postgresAvailable } from './support/postgres-url.js';

let dir: string;
let childScript: string;
const runId = `${process.pid}-${Date.now()}`;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'glimpse-stores-'));
  // Inside the checkout, so the bundle's external drivers resolve from its node_modules.
  childScript = fileURLToPath(
    new URL(`../node_modules/.cache/glimpse-store-crash/writer-${runId}.mjs`, import.meta.url),
  );
  await build({
    entryPoints: [fileURLToPath(new URL('./fixtures/session-store-crash-writer.ts', import.meta.url))],
    outfile: childScript,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'error',
  });
});

afterEach(() => vi.restoreAllMocks());
afterAll(() => rm(childScript, { force: true }));

async function cli(args: string[]): Promise<string> {
  const io = captureOutput();
  const code = await main(args);
  vi.restoreAllMocks();
  if (code !== 0) throw new Error(`glimpse ${args.join(' ')} exited ${code}: ${io.stderr.join('')}`);
  return io.stdout.join('');
}

/** The summary's store-independent lines: entries by role, media unique and total, the token estimates. */
function summaryFacts(summary: string): string[] {
  return summary
    .split('\n')
    .slice(1)
    .map((line) => line.replace(/; log file .*$/, ''));
}

/** The media rows a database holds for a session, with their bytes. */
async function mediaOf(sql: SqlClient, id: string) {
  return sql.query<{ sha256: string; bytes: Uint8Array; references: string | number }>(
    `SELECT m.sha256, m.bytes, (SELECT count(*) FROM glimpse_entry_media l WHERE l.sha256 = m.sha256 AND l.session_id = $1) AS references
      FROM glimpse_media m WHERE m.sha256 IN (SELECT sha256 FROM glimpse_entry_media WHERE session_id = $1)`,
    [id],
  );
}

/** Runs the crash writer on `location`, kills it with SIGKILL after `minimum` acknowledged appends plus a delay. */
function runAndKill(location: string, minimum: number, delayMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [childScript, location], {
      stdio: ['ignore', 'pipe', 'pipe'],
      cwd: fileURLToPath(new URL('..', import.meta.url)),
    });
    let acknowledged = -1;
    let buffered = '';
    let stderr = '';
    let armed = false;
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop()!;
      for (const line of lines) if (line !== 'open') acknowledged = Math.max(acknowledged, Number(line));
      if (!armed && acknowledged + 1 >= minimum) {
        armed = true;
        setTimeout(() => child.kill('SIGKILL'), delayMs);
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('exit', (code, signal) => {
      if (signal === 'SIGKILL') resolve(acknowledged + 1);
      else reject(new Error(`writer exited on its own (code ${code}): ${stderr}`));
    });
  });
}

interface StoreCase {
  name: string;
  /** A --session location for session `id`. */
  location: (id: string) => string;
  /** The database behind it, for looking at its tables (none for JSONL). */
  sql?: () => Promise<SqlClient>;
}

const cases: StoreCase[] = [
  { name: 'JSONL', location: (id) => join(dir, `${id}.jsonl`) },
  {
    name: 'pglite:',
    location: (id) => `pglite:${join(dir, 'pglite')}#${id}`,
    sql: () => openPGliteClient(join(dir, 'pglite')),
  },
];
if (postgresAvailable()) {
  cases.push({
    name: 'postgres://',
    location: (id) => `${DATABASE_URL}#${id}-${runId}`,
    sql: () => openPgClient(DATABASE_URL!, 'test server'),
  });
}

describe('session stores, end to end through the CLI', () => {
  beforeAll(() => mkdir(join(dir, 'pglite'), { recursive: true }));

  it('the demo logged twice gives the same glimpse session summary in every store', async () => {
    const summaries: string[][] = [];
    for (const store of cases) {
      const location = store.location('demo');
      await cli(['demo', '--session', location]);
      const second = await cli(['demo', '--session', location]);
      expect(second, store.name).not.toContain(DATABASE_URL ?? '\0');
      summaries.push(summaryFacts(await cli(['session', location])));
      // The store lists it, with both runs' entries: the location without its #ID names the store.
      const parsed = parseSessionLocation(location);
      const [storeName, id] =
        parsed.kind === 'jsonl' ? [dir, 'demo.jsonl'] : [location.slice(0, location.lastIndexOf('#')), parsed.id];
      const listed = (await cli(['session', 'list', storeName])).split('\n');
      expect(listed[0], store.name).toMatch(/^id\s+created\s+entries$/);
      expect(
        listed.find((row) => row.startsWith(`${id} `)),
        store.name,
      ).toMatch(/\s14$/);
    }
    // Two runs of the demo: 2 × (prompt, call turn, 4 results, answer).
    expect(summaries[0]![0]).toBe(
      'entries: 14 (user 2, assistant 4 with 8 tool calls, tool results 8 of which 0 errors)',
    );
    expect(summaries[0]![1]).toMatch(
      /^media: 6 images \(3 unique\), [\d.]+ [kKM]B in all, [\d.]+ [kKM]B unique; 2 documents \(1 unique\), [\d.]+ [kKM]B in all, [\d.]+ [kKM]B unique/,
    );
    for (const [index, summary] of summaries.entries()) expect(summary, cases[index]!.name).toStrictEqual(summaries[0]);
  }, 240_000);

  it('each database holds every unique medium of the demo once, as the bytes the session reads back', async () => {
    for (const store of cases) {
      if (store.sql === undefined) continue;
      const location = parseSessionLocation(store.location('demo'));
      const { store: opened, id } = await openSessionStore(location);
      const session = await opened.readSession(id).finally(() => opened.close());
      const parts = session.messages.flatMap((message) =>
        message.role === 'assistant' ? [] : message.parts.filter((part) => part.type !== 'text'),
      );
      const unique = new Map(parts.map((part) => [part.data, Buffer.from(part.data, 'base64')]));
      const sql = await store.sql();
      try {
        const rows = await mediaOf(sql, id);
        expect(rows, store.name).toHaveLength(unique.size);
        const stored = rows.map((row) => Buffer.from(row.bytes)).sort(Buffer.compare);
        expect(stored, store.name).toStrictEqual([...unique.values()].sort(Buffer.compare));
        for (const row of rows) {
          expect(createHash('sha256').update(row.bytes).digest('hex')).toBe(row.sha256);
          expect(Number(row.references), store.name).toBe(2); // one entry per run refers to it
        }
      } finally {
        await sql.close();
      }
    }
  }, 120_000);

  it('a writer killed with SIGKILL mid-way leaves a session that reads back with every acknowledged entry', async () => {
    for (const store of cases) {
      for (let round = 0; round < 2; round++) {
        const location = store.location(`crash-${round}`);
        const acknowledged = await runAndKill(location, 3 + round * 2, round * 5);
        const summary = await cli(['session', location]);
        const { store: opened, id } = await openSessionStore(parseSessionLocation(location));
        try {
          const session = await opened.readSession(id);
          expect(session.messages.length, store.name).toBeGreaterThanOrEqual(acknowledged);
          session.messages.forEach((message, index) => expect(message).toStrictEqual(crashEntry(index)));
          expect(summary).toContain(`entries: ${session.messages.length} (`);
          // It resumes: the next entry follows the committed ones.
          const resumed = await opened.openSession(id);
          await resumed.append(crashEntry(1_000));
          await resumed.close();
          expect((await opened.readSession(id)).messages).toStrictEqual([...session.messages, crashEntry(1_000)]);
        } finally {
          await opened.close();
        }
      }
    }
  }, 240_000);

  it('glimpse session import copies a JSONL log into a database store, times and header kept', async () => {
    const jsonl = cases[0]!.location('demo');
    for (const store of cases.slice(1)) {
      const target = store.location('imported');
      const out = await cli(['session', 'import', jsonl, '--to', target]);
      expect(out).toMatch(/^imported 14 entries from /);
      const [from, to] = await Promise.all(
        [jsonl, target].map(async (location) => {
          const { store: opened, id } = await openSessionStore(parseSessionLocation(location));
          return opened.readSession(id).finally(() => opened.close());
        }),
      );
      expect(to!.messages, store.name).toStrictEqual(from!.messages);
      expect(to!.entries.map((entry) => entry.at)).toStrictEqual(from!.entries.map((entry) => entry.at));
      expect(to!.header).toStrictEqual(from!.header);
      expect(summaryFacts(await cli(['session', target]))).toStrictEqual(summaryFacts(await cli(['session', jsonl])));
      // Run twice, it refuses rather than doubling the session.
      const io = captureOutput();
      expect(await main(['session', 'import', jsonl, '--to', target])).toBe(1);
      expect(io.stderr.join('')).toContain('E_SESSION_STORE');
      expect(io.stderr.join('')).toContain('already holds a session');
    }
  }, 120_000);
});
