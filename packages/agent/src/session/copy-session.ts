import { isSessionError, SessionError } from './session-error.js';
import type { SessionStore, StoredSession } from './session-store.js';

/**
 * Writes `session` into `store` as session `id`, keeping its header's `created` and `app` and each entry's `at`
 * (the store's clock reads the time of what it writes). An id the store
 * already holds is refused, so an import run twice cannot double a session, unless it holds a beginning of this
 * same session (same creation time, the same entries' times and roles): an import killed mid-way is finished
 * from where it stopped. Returns the entries copied.
 */
export async function copySession(session: StoredSession, store: SessionStore, id: string): Promise<number> {
  const existing = await store.readSession(id).catch((error: unknown) => {
    if (isSessionError(error) && error.code === 'E_SESSION_STORE') return undefined; // no such session
    throw error;
  });
  const done = existing === undefined ? 0 : existing.entries.length;
  if (existing !== undefined && (done >= session.entries.length || !isBeginningOf(existing, session)))
    throw new SessionError(
      'E_SESSION_STORE',
      `${store.location} already holds a session ${JSON.stringify(id)}${done >= session.entries.length && isBeginningOf(existing, session) ? ' with every entry of this log (imported before)' : ''}; import under another #ID`,
    );
  // The store's clock reads the time of what is being written: the header's, then each entry's as it is appended.
  let current = session.header.created;
  const target = await store.openSession(id, { app: session.header.app, now: () => new Date(current) });
  try {
    for (let index = done; index < session.messages.length; index++) {
      current = session.entries[index]!.at;
      await target.append(session.messages[index]!);
    }
  } finally {
    await target.close();
  }
  return session.messages.length - done;
}

function isBeginningOf(part: StoredSession, whole: StoredSession): boolean {
  return (
    part.header.created === whole.header.created &&
    part.entries.length <= whole.entries.length &&
    part.entries.every(
      (entry, index) =>
        entry.at === whole.entries[index]!.at && entry.message.role === whole.entries[index]!.message.role,
    )
  );
}
