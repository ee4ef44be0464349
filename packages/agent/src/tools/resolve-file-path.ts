import { FileError, isFileError } from '../fs/file-error.js';
import type { FileStat, FileSystem } from '../fs/file-system.js';
import { foldUnicodeSpaces, looseFileName, showUnicodeSpaces } from './unicode-spaces.js';

export interface ResolvedFilePath {
  /** The path to read (absolute, in the file system's syntax). */
  path: string;
  /** Set when the exact name was missing and a unique Unicode-space look-alike was used: tell the model. */
  note?: string;
}

function isInside(paths: FileSystem['paths'], root: string, target: string): boolean {
  const relative = paths.relative(root, target);
  return relative === '' || (!relative.startsWith('..') && !paths.isAbsolute(relative));
}

function outsideRoot(requested: string, root: string, how: string): FileError {
  return new FileError(
    'E_PATH_OUTSIDE_ROOT',
    `${requested} is outside ${root}, the only directory these tools may read (${how}). Use a path inside it; relative paths start there.`,
    { path: requested, root },
  );
}

/**
 * The tools read regular files only: opening a named pipe waits for a writer that may never come, and an
 * abandoned open holds one of Node's few file-system threads for good (four such calls stall every later read).
 */
function requireRegularFile(info: FileStat, requested: string): void {
  if (info.kind === 'other')
    throw new FileError(
      'E_NOT_A_FILE',
      `${requested} is a named pipe, socket or device, not a regular file; these tools read regular files only. Save its content to a file and read that.`,
      { path: requested, kind: 'other' },
    );
}

/**
 * Turns a path given by a model into the file to read:
 * 1. relative paths resolve against `root` (or the file system's cwd); with a root, anything that
 *    leaves it — lexically (`..`) or through a symlink (real paths compared) — is refused;
 * 2. the exact name wins; when it is missing, the names in the same directory are compared with every
 *    Unicode space folded to ASCII (and in NFC). One match is used (and a note says so); several are an error that
 *    lists them.
 */
export async function resolveFilePath(
  fileSystem: FileSystem,
  requested: string,
  { root }: { root?: string } = {},
): Promise<ResolvedFilePath> {
  const { paths } = fileSystem;
  if (requested === '' || requested.includes('\0'))
    throw new FileError('E_INVALID_ARGUMENTS', 'path must be a non-empty file path.', { path: requested });
  const base = root === undefined ? fileSystem.cwd() : paths.resolve(fileSystem.cwd(), root);
  const target = paths.resolve(base, requested);
  const realRoot = root === undefined ? undefined : await fileSystem.realPath(base);
  if (root !== undefined && !isInside(paths, base, target))
    throw outsideRoot(requested, base, 'the path leads out of it');

  const confine = async (candidate: string) => {
    if (realRoot === undefined) return;
    const real = await fileSystem.realPath(candidate);
    if (!isInside(paths, realRoot, real)) throw outsideRoot(requested, base, 'a symlink leads out of it');
  };

  try {
    const info = await fileSystem.stat(target);
    await confine(target);
    requireRegularFile(info, requested);
    return { path: target };
  } catch (error) {
    if (!isFileError(error) || error.code !== 'E_FILE_NOT_FOUND') throw error;
    const directory = paths.dirname(target);
    const wanted = looseFileName(paths.basename(target));
    if (realRoot !== undefined) {
      // Never list (or name in an error) a directory outside the root.
      const realDirectory = await fileSystem.realPath(directory).catch(() => undefined);
      if (realDirectory === undefined || !isInside(paths, realRoot, realDirectory)) throw error;
    }
    const names = await fileSystem.readDirectory(directory).catch(() => [] as string[]);
    const matches = names.filter((name) => looseFileName(name) === wanted);
    if (matches.length === 0) throw error;
    if (matches.length > 1) {
      throw new FileError(
        'E_AMBIGUOUS_NAME',
        `No file is named exactly ${showUnicodeSpaces(paths.basename(target))}, and ${matches.length} files in ${directory} differ from it only in their kind of spaces (or accent encoding): ${matches.map(showUnicodeSpaces).join(', ')}. Call again with the exact name.`,
        { path: requested, candidates: matches },
      );
    }
    const found = paths.join(directory, matches[0]!);
    await confine(found);
    requireRegularFile(await fileSystem.stat(found), requested);
    return {
      path: found,
      note: `No file is named exactly ${showUnicodeSpaces(paths.basename(target))}; read ${showUnicodeSpaces(matches[0]!)} instead, the one file whose name matches once ${
        foldUnicodeSpaces(matches[0]!) === foldUnicodeSpaces(paths.basename(target))
          ? 'Unicode spaces are read as plain spaces'
          : 'spaces and accents are compared loosely'
      }.`,
    };
  }
}
