import { readFile } from 'node:fs/promises';
import { parseSession, type LoadedSession } from './parse-session.js';

/** Reads and parses a session log file; see `parseSession` for what is tolerated and what throws. */
export async function loadSession(path: string): Promise<LoadedSession> {
  return parseSession(await readFile(path));
}
