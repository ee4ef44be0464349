import { FileError } from '../fs/file-error.js';
import type { FileSystem } from '../fs/file-system.js';
import { defaultFileSystem } from '../fs/default-file-system.js';
import { foldUnicodeSpaces } from './unicode-spaces.js';

/**
 * Writes an uploaded file into `dir` under its name with every Unicode space folded to ASCII, so the
 * name a model sees in a listing and the path it types agree byte for byte. Returns the written path.
 * Names with path separators, `..` or control characters are refused rather than sanitised silently.
 */
export async function stageFile(dir: string, name: string, bytes: Uint8Array, { fileSystem = defaultFileSystem() }: { fileSystem?: FileSystem } = {}): Promise<string> {
  const folded = foldUnicodeSpaces(name).trim();
  if (folded === '' || folded === '.' || folded === '..' || /[/\\]/.test(folded) || /\p{Cc}/u.test(folded)) {
    throw new FileError('E_INVALID_NAME', `Cannot stage a file named ${JSON.stringify(name)}: give a plain file name without path separators or control characters.`, { name });
  }
  const path = fileSystem.paths.join(fileSystem.paths.resolve(fileSystem.cwd(), dir), folded);
  await fileSystem.writeBytes(path, bytes);
  return path;
}
