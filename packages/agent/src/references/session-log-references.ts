import type { SessionAppender } from '../session/session-store.js';
import type { MediaReferences } from './media-references.js';
import { sessionMediaReferences } from './session-media-references.js';

/**
 * The references a session log keeps: read from the `media` lines of the session it resumes, and one `media` line
 * (`appendMedia`, the store sets its time) for each upload, so the next resume names those media with no upload.
 */
export function sessionLogReferences(session: SessionAppender): MediaReferences {
  return sessionMediaReferences({
    lines: session.resumed?.media ?? [],
    append: ({ sha256, reference }) => session.appendMedia({ sha256, reference }),
  });
}
