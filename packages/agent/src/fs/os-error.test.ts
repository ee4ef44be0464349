import { describe, expect, it } from 'vitest';
import { FILE_ERROR_CODES, isFileError } from './file-error.js';
import { fileErrorFromOsError } from './os-error.js';

const osError = (code: string) => Object.assign(new Error(`${code}: something`), { code, syscall: 'open' });

describe('OS errors as FileError codes', () => {
  it.each([
    ['ENOENT', 'E_FILE_NOT_FOUND', /^No file at \/d\/f\.png\.$/],
    ['ENOTDIR', 'E_FILE_NOT_FOUND', /a part of the path is a file, not a folder/],
    ['EISDIR', 'E_NOT_A_FILE', /is a directory, not a file/],
    ['EACCES', 'E_PERMISSION_DENIED', /Permission denied/],
    ['EPERM', 'E_PERMISSION_DENIED', /Permission denied/],
    ['ELOOP', 'E_SYMLINK_LOOP', /symlinks form a loop.*Use the path of the real file/],
    ['ENAMETOOLONG', 'E_NAME_TOO_LONG', /longer than the file system allows.*Use a shorter path/],
    ['EMFILE', 'E_TOO_MANY_OPEN_FILES', /too many files open \(EMFILE\).*ulimit -n/],
    ['ENFILE', 'E_TOO_MANY_OPEN_FILES', /too many files open \(ENFILE\)/],
    ['EIO', 'E_IO_ERROR', /EIO \(an input\/output error.*Try again/],
    ['ENOSPC', 'E_IO_ERROR', /ENOSPC \(the disk is full\)/],
    ['EWHATEVER', 'E_IO_ERROR', /EWHATEVER \(a system error\)/],
  ])('%s → %s, with a message that says what to do', (osCode, code, message) => {
    const error = fileErrorFromOsError(osError(osCode), '/d/f.png');
    expect(isFileError(error)).toBe(true);
    expect({ code: error?.code, osCode: error?.details.osCode }).toEqual({ code, osCode });
    expect(error?.message).toMatch(message);
    expect(Object.keys(FILE_ERROR_CODES)).toContain(code);
  });

  it("reads Deno's error classes when they carry no code (NotCapable, FilesystemLoop)", () => {
    const loop = Object.assign(new Error('loop'), { name: 'FilesystemLoop' });
    const capable = Object.assign(new Error('no'), { name: 'NotCapable' });
    expect(fileErrorFromOsError(loop, '/a')?.code).toBe('E_SYMLINK_LOOP');
    const denied = fileErrorFromOsError(capable, '/a', { permissionHint: ' (run Deno with --allow-read)' });
    expect(denied?.message).toBe('Permission denied for /a (run Deno with --allow-read).');
  });

  it('leaves bugs alone: errors without an OS code, and glimpse codes, are not OS errors', () => {
    expect(fileErrorFromOsError(new TypeError('x is undefined'), '/a')).toBeUndefined();
    expect(fileErrorFromOsError(Object.assign(new Error('m'), { code: 'E_CORRUPT' }), '/a')).toBeUndefined();
    expect(fileErrorFromOsError(Object.assign(new Error('m'), { code: 'ERR_INVALID_ARG_TYPE' }), '/a')).toBeUndefined();
  });

  it('shortens an over-long path in the message but keeps it whole in details', () => {
    const path = `/d/${'x'.repeat(5000)}`;
    const error = fileErrorFromOsError(osError('ENAMETOOLONG'), path);
    expect(error?.message.length).toBeLessThan(400);
    expect(error?.message).toContain('(5003 characters)');
    expect(error?.details.path).toBe(path);
  });
});
