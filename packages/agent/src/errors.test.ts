import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { isModelClientError, ModelClientError } from './clients/model-client-error.js';
import { isGlimpseError } from './errors.js';
import { FileError, isFileError } from './fs/file-error.js';
import { isSessionError, SessionError } from './session/session-error.js';

/** A second copy of the file error module, as a second bundle of the same app would carry it. */
async function secondCopy(): Promise<typeof import('./fs/file-error.js')> {
  const result = await build({
    entryPoints: [new URL('./fs/file-error.ts', import.meta.url).pathname],
    bundle: true,
    format: 'esm',
    write: false,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]!.text;
  return import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`);
}

describe('the glimpse error brand', () => {
  it('recognises an error made by another copy of the package, where instanceof does not', async () => {
    const other = await secondCopy();
    const foreign = new other.FileError('E_FILE_NOT_FOUND', 'nothing at /x', { path: '/x' });
    expect(foreign instanceof FileError).toBe(false);
    expect(isFileError(foreign)).toBe(true);
    expect(other.isFileError(new FileError('E_ABORTED', 'stopped'))).toBe(true);
    expect([foreign.name, foreign.code, foreign.details]).toEqual(['FileError', 'E_FILE_NOT_FOUND', { path: '/x' }]);
  });

  it('tells the families apart, even where they share a code', () => {
    const client = new ModelClientError('E_ABORTED', 'The call was aborted.', { provider: 'anthropic' });
    const file = new FileError('E_ABORTED', 'Reading /x was aborted.');
    expect([isFileError(client), isModelClientError(client), isFileError(file), isModelClientError(file)]).toEqual([
      false,
      true,
      true,
      false,
    ]);
    expect(isSessionError(new SessionError('E_SESSION_CORRUPT', 'bad', 3))).toBe(true);
    expect(isSessionError(file)).toBe(false);
  });

  it('refuses look-alikes: a plain error with a code, a branded error with an unknown code', () => {
    const coded = Object.assign(new Error('nope'), { code: 'E_FILE_NOT_FOUND' });
    const unknownCode = Object.assign(new Error('nope'), {
      [Symbol.for('glimpse.error')]: 'FileError',
      code: 'E_NOT_A_FILE_CODE',
    });
    expect([isFileError(coded), isGlimpseError(coded), isFileError(unknownCode)]).toEqual([false, false, false]);
    expect(isGlimpseError(new SessionError('E_SESSION_CLOSED', 'closed'))).toBe(true);
  });

  it('keeps the line of a session error in its message and details', () => {
    const error = new SessionError('E_SESSION_CORRUPT', 'not valid JSON', 7);
    expect([error.message, error.line, error.details]).toEqual(['line 7: not valid JSON', 7, { line: 7 }]);
  });
});
