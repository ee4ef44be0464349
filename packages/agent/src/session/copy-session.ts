import { isSessionError, SessionError } from './session-error.js';
import type { SessionStore, StoredSession } from './session-store.js';

/**
 * Writes `session` into `store` as session `id`, keeping its header's `created` and `app` and each entry's `at`
 * (the store's clock is fed the session's own times, in the order the appender asks for them). Refuses an id
 * the store already holds, so an import run twice cannot double a session. Returns the entries copied.
 */
export async function copySession(session: StoredSession, store: SessionStore, id: string): Promise<number> {
  const exists = await store.readSession(id).then(
    () => true,
    (error: unknown) => {
      if (isSessionError(error) && error.code === 'E_SESSION_STORE') return false; // no such session
      throw error;
    },
  );
  if (exists)
    throw new SessionError(
      'E_SESSION_STORE',
      `${store.location} already holds a session ${JSON.stringify(id)}; import under another #ID`,
    );
  const times = [session.header.created, ...session.entries.map((entry) => entry.at)];
  let next = 0;
  const target = await store.openSession(id, {
    app: session.header.app,
    now: () => new Date(times[Math.min(next++, times.length - 1)]!),
  });
  try {
    for (const message of session.messages) await target.append(message);
  } finally {
    await target.close();
  }
  return session.messages.length;
}
