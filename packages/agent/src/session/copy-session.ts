import type { Message } from '../types.js';
import { isSessionError, SessionError } from './session-error.js';
import type { MediaFact } from './session-format.js';
import type { SessionStore, StoredSession } from './session-store.js';

/** One line of a session in log order: a message entry or a media line, with the time it was written. */
type Line = { at: string; message: Message } | { at: string; fact: MediaFact };

/**
 * Writes `session` into `store` as session `id`, keeping its header's `created` and `app`, each entry's `at`, and
 * its media lines in their places among the entries (the store's clock reads the time of what it writes). An id
 * the store already holds is refused, so an import run twice cannot double a session, unless it holds a
 * beginning of this same session (same creation time, the same lines' times, roles and media): an import killed
 * mid-way is finished from where it stopped. Returns the message entries copied.
 */
export async function copySession(session: StoredSession, store: SessionStore, id: string): Promise<number> {
  const existing = await store.readSession(id).catch((error: unknown) => {
    if (isSessionError(error) && error.code === 'E_SESSION_STORE') return undefined; // no such session
    throw error;
  });
  const lines = linesOf(session);
  const done = existing === undefined ? 0 : linesOf(existing).length;
  const beginning = existing !== undefined && isBeginningOf(existing, session);
  if (existing !== undefined && (done >= lines.length || !beginning))
    throw new SessionError(
      'E_SESSION_STORE',
      `${store.location} already holds a session ${JSON.stringify(id)}${done >= lines.length && beginning ? ' with every entry of this log (imported before)' : ''}; import under another #ID`,
    );
  // The store's clock reads the time of what is being written: the header's, then each line's as it is appended.
  let current = session.header.created;
  const target = await store.openSession(id, { app: session.header.app, now: () => new Date(current) });
  let copied = 0;
  try {
    for (const line of lines.slice(done)) {
      current = line.at;
      if ('message' in line) {
        await target.append(line.message);
        copied++;
      } else await target.appendMedia(line.fact);
    }
  } finally {
    await target.close();
  }
  return copied;
}

/** Entries and media lines merged back into log order: a media line after the `afterEntries` entries before it. */
function linesOf(session: StoredSession): Line[] {
  const lines: Line[] = [];
  const media = session.media ?? [];
  let next = 0;
  session.entries.forEach((entry, index) => {
    for (; next < media.length && media[next]!.afterEntries <= index; next++) lines.push(mediaLine(media[next]!));
    lines.push({ at: entry.at, message: entry.message });
  });
  for (; next < media.length; next++) lines.push(mediaLine(media[next]!));
  return lines;
}

function mediaLine({ at, sha256, refused, reference }: NonNullable<StoredSession['media']>[number]): Line {
  return { at, fact: { sha256, ...(refused && { refused }), ...(reference && { reference }) } };
}

function isBeginningOf(part: StoredSession, whole: StoredSession): boolean {
  const partLines = linesOf(part);
  const wholeLines = linesOf(whole);
  return (
    part.header.created === whole.header.created &&
    partLines.length <= wholeLines.length &&
    partLines.every((line, index) => {
      const other = wholeLines[index]!;
      if (line.at !== other.at) return false;
      if ('message' in line) return 'message' in other && line.message.role === other.message.role;
      return 'fact' in other && JSON.stringify(line.fact) === JSON.stringify(other.fact);
    })
  );
}
