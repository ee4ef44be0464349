// `@glimpse/agent/node`: the parts that need Node's built-ins (node:fs, node:crypto) — the local file
// system, and the session log's writer and readers. Importing it also makes the local disk the file tools'
// default file system, as `@glimpse/agent` does in Node.
import { setDefaultFileSystem } from '../fs/default-file-system.js';
import { nodeFileSystem } from '../fs/node-file-system.js';

setDefaultFileSystem(nodeFileSystem);

export { nodeFileSystem } from '../fs/node-file-system.js';
export { SessionWriter } from '../session/session-writer.js';
export type { SessionWriterOptions } from '../session/session-writer.js';
export { loadSession } from '../session/load-session.js';
export { parseSession } from '../session/parse-session.js';
export type { LoadedEntry, LoadedSession } from '../session/parse-session.js';
export { JsonlSessionStore } from '../session/jsonl-session-store.js';
export { openSessionStore } from '../session/open-session-store.js';
export { openPgClient, PG_VERSION } from '../session/pg-client.js';
