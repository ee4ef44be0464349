// In-page side of the browser session-store suite: PostgresSessionStore over PGlite on IndexedDB
// (idb://). `?step=N` appends run N of the session (a fresh page each time, so run 1 resumes what run 0 left
// in IndexedDB); `?step=read` reads it back with the media rows the database holds. The result is JSON in #results.
import { openPGliteClient } from '../../../packages/agent/src/session/pglite-client.js';
import { PostgresSessionStore } from '../../../packages/agent/src/session/postgres-session-store.js';
import { SESSION_RUNS } from './session-case.js';

const DATA_DIR = 'idb://glimpse-session-suite';
const results = document.getElementById('results')!;

async function run(step: string): Promise<unknown> {
  const client = await openPGliteClient(DATA_DIR);
  const store = await PostgresSessionStore.open(client, DATA_DIR);
  try {
    if (step === 'read') {
      const session = await store.readSession('browser');
      const media = await client.query<{ sha256: string; length: number }>(
        'SELECT sha256, octet_length(bytes) AS length FROM glimpse_media ORDER BY length',
      );
      return { messages: session.messages, header: session.header, media };
    }
    const session = await store.openSession('browser', { app: { name: 'browser suite' } });
    for (const message of SESSION_RUNS[Number(step)]!) await session.append(message);
    await session.close();
    return { resumed: session.resumed?.messages.length ?? 0 };
  } finally {
    await store.close();
  }
}

run(new URLSearchParams(location.search).get('step') ?? 'read').then(
  (value) => {
    results.textContent = JSON.stringify(value);
    results.dataset.done = 'true';
  },
  (error: unknown) => {
    results.textContent = JSON.stringify({ error: String(error), stack: error instanceof Error ? error.stack : '' });
    results.dataset.done = 'true';
  },
);
