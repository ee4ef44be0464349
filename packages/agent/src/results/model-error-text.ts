import { isMediaError, type MediaError } from '@glimpse/media';
import { type FileError, isFileError } from '../fs/file-error.js';

// What a model reads for a failure in a tool result. Media's messages are written for the developer who called
// it (pdfText(), maxBytes, "answer 503", a rebuild script); a model can do none of that. It can ask the user for
// another file, call its tool again, or say that the host is at fault. The typed error (code, message, details)
// stays the developer's: the CLI prints it, ViewFileOutcome.error carries it. The same for the few FileErrors
// whose remedy names a host option or flag (the read cap, a missing file system or capability).

export interface ModelErrorContext {
  /** The tool whose result this is (`view_file`), when the text may say what its arguments can and cannot do. */
  tool?: string;
}

/** Up to the first sentence's end: the facts, before media's remedy for the developer. */
function facts(message: string): string {
  const end = message.search(/\.\s+(?=[A-Z(])/);
  return end === -1 ? message.replace(/\.?$/, '.') : message.slice(0, end + 1);
}

function encrypted(error: MediaError, { tool }: ModelErrorContext): string {
  const refused = 'and providers refuse encrypted PDFs, so it could not be sent';
  if (error.details['opensWithoutPassword'] === true)
    return `The PDF is encrypted, though it opens without a password, ${refused}. Ask the user for an unencrypted copy (printed to a new PDF).`;
  if (error.details['securityHandler'] === 'unsupported')
    return `The PDF is encrypted in a way that cannot be opened here, ${refused}. Ask the user for an unencrypted copy (printed to a new PDF).`;
  const noPassword = tool === undefined ? '' : ` (${tool} takes no password)`;
  return `The PDF is password-protected: it cannot be read or sent without its password${noPassword}. Ask the user for a copy without the password (opened with it and printed to a new PDF), or for the text you need from it.`;
}

/** The bomb guard: the image (or a PDF page drawn at the size asked for) has more pixels than the host opens. */
function tooManyPixels(error: MediaError): string {
  const { width, height } = error.details;
  if (error.message.startsWith('Rendering this page'))
    return `The page would be ${width}×${height} pixels drawn at the size asked for, more than this host draws. Ask for the page as text, or ask the user for the part you need.`;
  return `${facts(error.message)} It is larger than this host opens, so no part of it can be shown. Ask the user for a smaller copy (downscaled, or cropped to the part you need).`;
}

/**
 * What to do about a timeout whose time was shared with other work running at once (the clause after "so it was
 * stopped: "): also the MCP server's view_file pool, whose workers each have their own media module.
 */
export const SHARED_TIME_ADVICE =
  'the time was shared with them, and nothing says this file is at fault. Try it again on its own, or a little later: that is likely to work.';

/**
 * Out of time: the file may be built to be slow, unless its time was shared with other files processed at once
 * (`sharedWithOtherJobs`): then the time says little about the file, and the same call alone or later likely works.
 */
function timedOut(error: MediaError): string {
  const { stage, timeoutMs, sharedWithOtherJobs } = error.details;
  if (sharedWithOtherJobs !== true)
    return `${facts(error.message)} The file may be built to be slow. Ask the user for a simpler copy (exported to PNG or JPEG).`;
  const what = typeof stage === 'string' && stage !== '' ? stage : 'Reading the file';
  const limit = typeof timeoutMs === 'number' ? ` (${timeoutMs} ms)` : '';
  return `${what} ran out of time${limit} while other files were being processed at the same time, so it was stopped: ${SHARED_TIME_ADVICE}`;
}

/** A FileError's message is written for the model, but for the few whose remedy is the host's (an option, a flag). */
function fileErrorText(error: FileError, { tool }: ModelErrorContext): string {
  switch (error.code) {
    case 'E_FILE_TOO_LARGE':
      return `${facts(error.message)} Ask the user for a smaller copy, or for the part you need.`;
    case 'E_NO_FILE_SYSTEM':
      // The app's setup, said to its developer (pass fileSystem, setDefaultFileSystem): the model can only report it.
      return `${tool ?? 'This tool'} cannot read files here: the app gave it no file system, a problem of the app's setup, not of the file, and trying again will not help. Tell the user.`;
    case 'E_CAPABILITY_UNKNOWN':
      return `${facts(error.message).replace(/\.$/, '')}. Use read for text files.`;
    default:
      return error.message;
  }
}

/**
 * The failure's message as the model should read it: media's own where it already says what the model can do,
 * else its facts with a remedy the model can act on. A FileError's message is already written for the model,
 * but for a missing file system (the app's setup).
 */
export function modelErrorText(error: unknown, context: ModelErrorContext = {}): string {
  const message = error instanceof Error ? error.message : String(error);
  if (isFileError(error)) return fileErrorText(error, context);
  if (!isMediaError(error)) return message;
  switch (error.code) {
    case 'E_TOO_MANY_PIXELS':
      return tooManyPixels(error);
    case 'E_PDF_ENCRYPTED':
      return encrypted(error, context);
    case 'E_UNSUPPORTED':
      return error.details['pdfInput'] === false
        ? 'The current model takes no PDF attachments, so it could not be sent. Ask the user for the text you need from it, or for images of its pages.'
        : message;
    case 'E_BUSY':
      return 'The host was busy with other files; nothing is wrong with this one.';
    case 'E_WASM_UNAVAILABLE':
      return "The host's media decoders could not start: a problem of the host's setup, not of the file, and trying again will not help. Tell the user.";
    case 'E_TIMEOUT':
      return timedOut(error);
    case 'E_TOO_LARGE':
      // A PDF over the preset's page limit already says to choose pages (view_file adds the call that does).
      if (typeof error.details['maxPdfPages'] === 'number') return message;
      if (typeof error.details['maxPages'] === 'number') return `${facts(message)} Ask for fewer pages at once.`;
      return `${facts(message)} Ask the user for a smaller copy (fewer pixels, or fewer pages).`;
    default:
      return message;
  }
}
