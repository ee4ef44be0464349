import { FileError } from './file-error.js';
import type { FileSystem } from './file-system.js';

/**
 * The file system the file tools use when they are given none. The core cannot know one (a browser or a
 * Worker has no disk), so a runtime entry sets it: in Node, `@glimpse/agent` (its `node` export condition),
 * `@glimpse/agent/node` and `@glimpse/agent/mcp` set the local disk. Elsewhere, pass `fileSystem`.
 */
let fallback: FileSystem | undefined;

export function setDefaultFileSystem(fileSystem: FileSystem): void {
  fallback = fileSystem;
}

/** The default file system, or a FileError saying what to pass when this runtime has none. */
export function defaultFileSystem(): FileSystem {
  if (fallback !== undefined) return fallback;
  throw new FileError(
    'E_NO_FILE_SYSTEM',
    'No fileSystem was given, and this runtime has no default one: pass fileSystem (new MemoryFileSystem({ files }) in a browser or Worker, denoFileSystem() in Deno), or call setDefaultFileSystem once.',
  );
}
