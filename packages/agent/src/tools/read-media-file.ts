import { detect, type MediaType } from '@glimpse/media';
import { FileError } from '../fs/file-error.js';
import type { FileSystem } from '../fs/file-system.js';
import { mediaLabel } from './describe-binary.js';
import { renamedFor, typeClaimedByExtension } from './extension-types.js';
import { resolveFilePath } from './resolve-file-path.js';

/** A file `view_file` read: where, its bytes, what its content is, and what the model should be told about it. */
export interface MediaFile {
  /** The file that was read (after the name fallback). */
  path: string;
  name: string;
  bytes: Uint8Array;
  /** What the content is; undefined when no magic number names it. */
  type: MediaType | undefined;
}

export interface ReadMediaFileOptions {
  fileSystem: FileSystem;
  root: string | undefined;
  maxFileBytes: number;
  /** Refuse a file whose extension names another type than its content, instead of reading it with a note. */
  strict: boolean;
  signal: AbortSignal | undefined;
}

/**
 * Finds and reads the file a model named (within the root, bounded), and tells its type by its content. A name
 * that claims another type is read as what it is, with a note saying how to rename it (strict mode refuses it).
 * Notes for the model (the name fallback, the mismatch) go into `notes` as they arise, so a read that fails
 * after the fallback still says which file it tried.
 */
export async function readMediaFile(
  requested: string,
  options: ReadMediaFileOptions,
  notes: string[],
): Promise<MediaFile> {
  const { fileSystem } = options;
  const resolved = await resolveFilePath(fileSystem, requested, { root: options.root });
  if (resolved.note !== undefined) notes.push(resolved.note);
  const name = fileSystem.paths.basename(resolved.path);
  const bytes = await fileSystem.readBytes(resolved.path, { maxBytes: options.maxFileBytes, signal: options.signal });
  const type = detect(bytes);
  const extension = fileSystem.paths.extname(name);
  const claimed = typeClaimedByExtension(extension);
  if (type !== undefined && claimed !== undefined && type !== claimed) {
    const rename = renamedFor(name, extension, type);
    if (options.strict) {
      throw new FileError(
        'E_FILE_TYPE_MISMATCH',
        `${name} is named like a ${mediaLabel(claimed)} but contains a ${mediaLabel(type)}. Rename it to ${rename} (strict mode refuses mismatched files).`,
        { path: resolved.path, claimed, actual: type, rename },
      );
    }
    notes.push(
      `Note: ${name} is named like a ${mediaLabel(claimed)} but contains a ${mediaLabel(type)}; it was read as a ${mediaLabel(type)} (the content decides). Renaming it to ${rename} would match.`,
    );
  }
  return { path: resolved.path, name, bytes, type };
}
