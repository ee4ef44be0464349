import { unlinkSync } from 'node:fs';
import { open, readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { SessionError } from './session-error.js';

/** The lock file's name inside a PGlite directory: the holder's process id. */
export const PGLITE_LOCK_FILE = 'glimpse-session.lock';

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * PGlite is one process per directory, and does not check: a second process writing the same directory
 * loses its writes without an error. The directory is taken with a lock file (created exclusively, holding the
 * process id); a lock whose process is gone (killed) is taken over. Resolves to the release.
 */
export async function lockPGliteDirectory(dataDir: string): Promise<() => Promise<void>> {
  const path = join(dataDir, PGLITE_LOCK_FILE);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const handle = await open(path, 'wx');
      await handle.writeFile(`${process.pid}\n`);
      await handle.close();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number.parseInt(await readFile(path, 'utf8').catch(() => ''), 10);
      if (Number.isInteger(holder) && holder > 0 && isRunning(holder))
        throw new SessionError(
          'E_SESSION_STORE',
          `the PGlite directory ${dataDir} is in use by process ${holder}${holder === process.pid ? ' (this one)' : ''}: PGlite takes one process at a time. Wait for it to end, or keep sessions written by several processes in a Postgres server (postgres://USER:PASS@HOST:PORT/DB#ID).`,
        );
      await unlink(path).catch(() => undefined);
      continue;
    }
    // A process that exits without closing the store still leaves the directory free.
    const onExit = () => {
      try {
        unlinkSync(path);
      } catch {}
    };
    process.once('exit', onExit);
    return async () => {
      process.off('exit', onExit);
      await unlink(path).catch(() => undefined);
    };
  }
  throw new SessionError(
    'E_SESSION_STORE',
    `cannot take the PGlite directory ${dataDir}: its lock file ${path} keeps changing; is another process opening it?`,
  );
}
