// `npm run test:workers` part 2: a session round-trips through D1SessionStore in workerd (miniflare's D1 and
// R2): written in two requests (the second resumes it), read back equal to what was written, each unique
// medium once in R2 as its bytes, entries in D1 holding references only.
import { deepStrictEqual, strictEqual } from 'node:assert';
import { createHash } from 'node:crypto';
import { SESSION_RUNS, UNIQUE_MEDIA } from './session-case.js';
import { startSessionWorker } from './session-worker-server.js';

const { miniflare, url: base } = await startSessionWorker();

/** The R2 and D1 calls the checks make; miniflare's own types for them need @cloudflare/workers-types. */
interface Bucket {
  list(): Promise<{ objects: { key: string }[] }>;
  get(key: string): Promise<{ arrayBuffer(): Promise<ArrayBuffer> } | null>;
}
interface Database {
  prepare(sql: string): { all<Row>(): Promise<{ results: Row[] }> };
}
const media = async () => (await miniflare.getR2Bucket('MEDIA')) as unknown as Bucket;
const database = async () => (await miniflare.getD1Database('DB')) as unknown as Database;

const checks: [string, () => Promise<void>][] = [];
const check = (name: string, run: () => Promise<void>) => checks.push([name, run]);

const call = async (path: string, body?: unknown) => {
  const response = await fetch(
    new URL(path, base),
    body === undefined ? {} : { method: 'POST', body: JSON.stringify(body) },
  );
  const json = await response.json();
  if (!response.ok) throw new Error(`${path}: ${JSON.stringify(json)}`);
  return json;
};

check('a session written in two requests (the second resumes) reads back as written', async () => {
  deepStrictEqual(await call('/append?id=s1', SESSION_RUNS[0]), { resumed: 0, appended: SESSION_RUNS[0]!.length });
  deepStrictEqual(await call('/append?id=s1', SESSION_RUNS[1]), {
    resumed: SESSION_RUNS[0]!.length,
    appended: SESSION_RUNS[1]!.length,
  });
  const read = await call('/read?id=s1');
  deepStrictEqual(read.messages, SESSION_RUNS.flat());
  strictEqual(read.header.app.name, 'workers suite');
  deepStrictEqual(await call('/list'), [
    { id: 's1', created: read.header.created, entries: SESSION_RUNS.flat().length },
  ]);
});

check('R2 holds each unique medium once, as its bytes, keyed by SHA-256; D1 entries hold references only', async () => {
  const bucket = await media();
  const listed = await bucket.list();
  const expected = UNIQUE_MEDIA.map((data) => Buffer.from(data, 'base64'));
  strictEqual(listed.objects.length, expected.length);
  const stored: Buffer[] = [];
  for (const object of listed.objects) {
    const bytes = Buffer.from(await (await bucket.get(object.key))!.arrayBuffer());
    strictEqual(object.key, `media/${createHash('sha256').update(bytes).digest('hex')}`);
    stored.push(bytes);
  }
  deepStrictEqual(stored.sort(Buffer.compare), expected.sort(Buffer.compare));
  const db = await database();
  const { results } = await db.prepare('SELECT entry FROM glimpse_entries').all<{ entry: string }>();
  strictEqual(results.length, SESSION_RUNS.flat().length);
  strictEqual(results.filter((row) => row.entry.includes('"data"')).length, 0);
});

check('a second session refers to the media already stored, adding none', async () => {
  await call('/append?id=s2', SESSION_RUNS[1]);
  deepStrictEqual((await call('/read?id=s2')).messages, SESSION_RUNS[1]);
  strictEqual((await (await media()).list()).objects.length, UNIQUE_MEDIA.length);
});

check(
  'media lines go to D1 in their place among the entries, and a fact the format does not hold is refused',
  async () => {
    const sha256 = createHash('sha256').update(Buffer.from(UNIQUE_MEDIA[0]!, 'base64')).digest('hex');
    const fact = {
      sha256,
      refused: {
        route: 'anthropic',
        code: 'E_MEDIA_REFUSED',
        action: 'placeholder',
        reason: 'Could not process image',
      },
    };
    await call('/append?id=s3', SESSION_RUNS[0]);
    deepStrictEqual(await call('/media?id=s3', [fact]), { appended: 1 });
    await call('/append?id=s3', SESSION_RUNS[1]);
    const read = await call('/read?id=s3');
    deepStrictEqual(read.messages, SESSION_RUNS.flat());
    deepStrictEqual(
      read.media.map(({ at: _at, ...line }: { at: string }) => line),
      [{ type: 'media', ...fact, afterEntries: SESSION_RUNS[0]!.length }],
    );
    const refused = await fetch(new URL('/media?id=s3', base), { method: 'POST', body: JSON.stringify([{ sha256 }]) });
    strictEqual(refused.status, 500);
    strictEqual(((await refused.json()) as { error: { code: string } }).error.code, 'E_SESSION_CORRUPT');
    strictEqual((await call('/read?id=s3')).media.length, 1);
  },
);

let failed = 0;
try {
  for (const [name, run] of checks) {
    try {
      await run();
      console.log(`ok   ${name}`);
    } catch (error) {
      failed++;
      console.log(`FAIL ${name}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  console.log(`workers session store: ${checks.length - failed} passed, ${failed} failed`);
} finally {
  await miniflare.dispose();
}
globalThis.process.exit(failed === 0 ? 0 : 1);
