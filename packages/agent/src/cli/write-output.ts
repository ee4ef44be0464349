import { fstatSync, statSync } from 'node:fs';
import { basename, extname } from 'node:path';
import type { MediaType } from '@glimpse/media';
import { FileError, isFileError } from '../fs/file-error.js';
import { nodeFileSystem } from '../fs/node-file-system.js';
import { renamedFor, typeClaimedByExtension } from '../tools/extension-types.js';
import { UsageError } from './command.js';

/** Whether `path` is this process's stdout under another name (`/dev/stdout`, `/proc/self/fd/1`, the file stdout is redirected to). */
function isStdout(path: string): boolean {
  try {
    const out = fstatSync(1);
    const target = statSync(path);
    return out.dev === target.dev && out.ino === target.ino;
  } catch {
    return false;
  }
}

/**
 * Where a command's result bytes go: `-o -` (or a path that is stdout) sends them to stdout, and the JSON
 * summary then goes to stderr so bytes and JSON never mix. Checked before the work starts: image bytes are
 * never written to a terminal.
 */
export function outputTarget(output: string | undefined): { toStdout: boolean; summary: NodeJS.WriteStream } {
  const toStdout = output === '-' || (output !== undefined && isStdout(output));
  if (toStdout && process.stdout.isTTY)
    throw new UsageError(
      '-o - writes binary data to stdout, which is a terminal here: redirect stdout (> out.jpg, | …) or give -o a file name',
    );
  return { toStdout, summary: toStdout ? process.stderr : process.stdout };
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** Writes the result bytes to `output` (stdout for `-`); a folder that is missing or not writable is a typed FileError. */
export async function writeOutput(output: string, bytes: Uint8Array): Promise<void> {
  if (output === '-') {
    await new Promise<void>((resolve, reject) =>
      process.stdout.write(bytes, (error) => (error ? reject(error) : resolve())),
    );
    return;
  }
  await nodeFileSystem.writeBytes(output, bytes).catch((error: unknown) => {
    if (!isFileError(error)) throw error;
    const reason = isDirectory(output)
      ? 'it is a folder: give -o a file name, such as a name inside that folder'
      : 'its folder is missing or not writable';
    throw new FileError(error.code, `Cannot write ${output}: ${reason} (${error.code}).`, error.details, {
      cause: error,
    });
  });
}

/**
 * A warning line when OUT's extension names another type than the bytes written (a PNG that became JPEG to
 * fit --max-bytes, written to out.png); undefined when they agree or the extension names no type.
 */
export function extensionWarning(output: string, mediaType: MediaType): string | undefined {
  const extension = extname(output);
  const claimed = typeClaimedByExtension(extension);
  if (claimed === undefined || claimed === mediaType) return undefined;
  const name = basename(output);
  return `glimpse: warning: ${name} is named like ${claimed} but holds ${mediaType} (the output type follows the input and the limits, never the name); name it ${renamedFor(name, extension, mediaType)}`;
}
