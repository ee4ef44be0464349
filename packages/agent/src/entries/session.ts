// `@glimpse/agent/session`: the JSONL session log's format and its errors, runtime-neutral. Writing and reading a
// log needs node:fs and node:crypto: `SessionWriter`, `loadSession` and `parseSession` are `@glimpse/agent/node`.
export { SessionError, isSessionError, SESSION_ERROR_CODES } from '../session/session-error.js';
export type { SessionErrorCode } from '../session/session-error.js';
export { SESSION_FORMAT_NAME, SESSION_FORMAT_VERSION } from '../session/session-format.js';
export type { LoggedMessage, LoggedPart, SessionEntry, SessionHeader } from '../session/session-format.js';
