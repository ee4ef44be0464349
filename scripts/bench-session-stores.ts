// Session-store timings (issue 28): append latency per entry and read-back time of a 1,000-entry session with
// 200 images (distinct 64 KiB media, one per fifth entry; the rest text turns), per store: JSONL, PGlite in a
// directory, a Postgres server (DATABASE_URL; run under scripts/with-postgres.sh) and D1 + R2 in miniflare
// (the appends timed inside the Worker, where workerd's clock moves across D1 and R2 calls, in whole ms).
// A script, not a test: the numbers go to the report and docs/sessions.md.
// Usage: bash scripts/with-postgres.sh node scripts/run-ts.mjs scripts/bench-session-stores.ts [--entries N]
//          [--stores jsonl,pglite,postgres,d1]
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JsonlSessionStore } from '../packages/agent/src/session/jsonl-session-store.js';
import { openPgClient } from '../packages/agent/src/session/pg-client.js';
import { openPGliteClient } from '../packages/agent/src/session/pglite-client.js';
import { PostgresSessionStore } from '../packages/agent/src/session/postgres-session-store.js';
import type { SessionStore } from '../packages/agent/src/session/session-store.js';
import type { Message } from '../packages/agent/src/types.js';
import { startSessionWorker } from '../test/runtimes/sessions/session-worker-server.js';

const entriesFlag = process.argv.indexOf('--entries');
const ENTRIES = entriesFlag === -1 ? 1_000 : Number(process.argv[entriesFlag + 1]);
const storesFlag = process.argv.indexOf('--stores');
const STORES = new Set((storesFlag === -1 ? 'jsonl,pglite,postgres,d1' : process.argv[storesFlag + 1]!).split(','));
const IMAGE_EVERY = 5;
const IMAGE_BYTES = 64 * 1024;

function entry(index: number): Message {
  if (index % IMAGE_EVERY !== IMAGE_EVERY - 1)
    return index % 2 === 0
      ? { role: 'user', parts: [{ type: 'text', text: `turn ${index}: ${'lorem ipsum '.repeat(20)}` }] }
      : {
          role: 'assistant',
          text: `answer ${index}`,
          toolCalls: [{ id: `c${index}`, name: 'view_file', arguments: { path: `f${index}.png` } }],
        };
  const bytes = Buffer.alloc(IMAGE_BYTES);
  for (let i = 0; i < bytes.length; i += 4)
    bytes.writeUInt32LE((Math.imul(index + 1, 2654435761) ^ Math.imul(i, 40503)) >>> 0, i);
  return {
    role: 'toolResult',
    toolCallId: `c${index}`,
    toolName: 'view_file',
    isError: false,
    parts: [
      { type: 'text', text: `f${index}.png` },
      { type: 'image', mediaType: 'image/png', data: bytes.toString('base64'), width: 128, height: 128 },
    ],
  };
}

const messages = Array.from({ length: ENTRIES }, (_, i) => entry(i));
const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

interface Row {
  store: string;
  appendMedian: number;
  appendP95: number;
  appendMean: number;
  readBack: number;
}

async function measure(name: string, store: SessionStore): Promise<Row> {
  console.error(`== ${name}`);
  const session = await store.openSession(`bench-${Date.now()}`, { app: { name: 'bench' } });
  const id = (await store.listSessions()).at(-1)!.id;
  const times: number[] = [];
  for (const message of messages) {
    const started = performance.now();
    await session.append(message);
    times.push(performance.now() - started);
  }
  await session.close();
  const reads: number[] = [];
  for (let i = 0; i < 3; i++) {
    const started = performance.now();
    const read = await store.readSession(id);
    reads.push(performance.now() - started);
    if (read.messages.length !== ENTRIES) throw new Error(`${name}: read back ${read.messages.length} entries`);
  }
  const sorted = [...times].sort((a, b) => a - b);
  return {
    store: name,
    appendMedian: quantile(sorted, 0.5),
    appendP95: quantile(sorted, 0.95),
    appendMean: times.reduce((a, b) => a + b, 0) / times.length,
    readBack: [...reads].sort((a, b) => a - b)[1]!,
  };
}

/** D1 + R2 through a Worker in miniflare: the store runs inside workerd, which times each append. */
async function measureD1(): Promise<Row> {
  console.error('== D1 + R2');
  const { miniflare, url: base } = await startSessionWorker();
  try {
    // 50 entries per request: a request has a Worker's memory, and one body holding a whole session is not how
    // an agent appends. Each request reopens (and so reads) the session; only the appends are timed.
    const times: number[] = [];
    for (let start = 0; start < messages.length; start += 50) {
      const response = await fetch(new URL('/append?id=bench&timings=1', base), {
        method: 'POST',
        body: JSON.stringify(messages.slice(start, start + 50)),
      });
      if (!response.ok) throw new Error(await response.text());
      times.push(...((await response.json()) as { times: number[] }).times);
    }
    const reads: number[] = [];
    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      const read = await (await fetch(new URL('/read?id=bench', base))).json();
      reads.push(performance.now() - started);
      if (read.messages.length !== ENTRIES) throw new Error(`d1: read back ${read.messages.length}`);
    }
    const sorted = [...times].sort((a, b) => a - b);
    return {
      store: 'D1 + R2 (miniflare; appends timed in the Worker, whole ms)',
      appendMedian: quantile(sorted, 0.5),
      appendP95: quantile(sorted, 0.95),
      appendMean: times.reduce((a, b) => a + b, 0) / times.length,
      readBack: [...reads].sort((a, b) => a - b)[1]!,
    };
  } finally {
    await miniflare.dispose();
  }
}

const ms = (value: number) => `${value.toFixed(2)} ms`;
const line = (row: Row) =>
  `| ${row.store} | ${ms(row.appendMedian)} | ${ms(row.appendP95)} | ${ms(row.appendMean)} | ${ms(row.readBack)} |`;
const rows: Row[] = [];
const done = (row: Row) => {
  rows.push(row);
  console.error(line(row));
};
const dir = await mkdtemp(join(tmpdir(), 'glimpse-bench-stores-'));
try {
  if (STORES.has('jsonl')) done(await measure('JSONL (content-addressed, no fsync)', new JsonlSessionStore(dir)));
  if (STORES.has('pglite')) {
    const pglite = await PostgresSessionStore.open(await openPGliteClient(join(dir, 'pglite')), 'pglite');
    done(await measure('PGlite (directory)', pglite));
    await pglite.close();
  }
  if (STORES.has('postgres') && process.env.DATABASE_URL) {
    const server = await PostgresSessionStore.open(await openPgClient(process.env.DATABASE_URL, 'server'), 'server');
    done(await measure('Postgres 15 server (pg, 127.0.0.1, fsync on)', server));
    await server.close();
  } else if (STORES.has('postgres'))
    console.log('Postgres skipped: DATABASE_URL is not set (run under scripts/with-postgres.sh)');
  if (STORES.has('d1')) done(await measureD1());
} finally {
  await rm(dir, { recursive: true, force: true });
}
console.log(
  `${ENTRIES} entries, ${Math.floor(ENTRIES / IMAGE_EVERY)} distinct ${IMAGE_BYTES / 1024} KiB images; node ${process.version}`,
);
console.log('| store | append median | append p95 | append mean | read back (median of 3) |');
console.log('| --- | --- | --- | --- | --- |');
for (const row of rows) console.log(line(row));
