// The file tools over the real Node file system, where the OS reports what a memory file system cannot:
// a symlink loop, an over-long name, a file used as a folder. Each is an error result the model can act on,
// never a thrown exception.
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeFileSystem } from '../fs/node-file-system.js';
import type { ToolResult } from '../types.js';
import { createFileTools } from './file-tools.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'glimpse-os-errors-'));
  await symlink('loop-b.png', join(dir, 'loop-a.png'));
  await symlink('loop-a.png', join(dir, 'loop-b.png'));
  await writeFile(join(dir, 'notes.txt'), 'text\n');
  await mkdir(join(dir, 'sub'));
  execFileSync('mkfifo', [join(dir, 'pipe.png')]);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const text = (result: ToolResult) => result.parts.map((part) => (part.type === 'text' ? part.text : '')).join('\n');

const CASES = [
  { path: 'loop-a.png', code: 'E_SYMLINK_LOOP', says: /symlinks form a loop/ },
  { path: `${'x'.repeat(300)}.png`, code: 'E_NAME_TOO_LONG', says: /Use a shorter path/ },
  { path: 'notes.txt/inner.png', code: 'E_FILE_NOT_FOUND', says: /a part of the path is a file, not a folder/ },
  { path: 'sub', code: 'E_NOT_A_FILE', says: /is a directory, not a file/ },
  { path: 'pipe.png', code: 'E_NOT_A_FILE', says: /is a named pipe, socket or device, not a regular file/ },
];

describe('OS errors in the file tools (node file system)', () => {
  for (const withRoot of [false, true]) {
    const tools = () =>
      createFileTools({
        fileSystem: nodeFileSystem,
        ...(withRoot ? { root: dir } : {}),
        capabilities: { imageInput: true, pdfInput: true, mediaInToolResults: true, preset: 'anthropic' },
      });
    for (const { path, code, says } of CASES) {
      it(`view_file and read answer ${code} for ${path.slice(0, 24)}${withRoot ? ' (with a root)' : ''}`, async () => {
        const { read, viewFile } = tools();
        const target = withRoot ? path : join(dir, path);
        for (const tool of [viewFile, read]) {
          const result = await tool.execute({ path: target });
          expect(result.isError).toBe(true);
          expect(text(result)).toMatch(new RegExp(`^${code}: `));
          expect(text(result)).toMatch(says);
        }
      });
    }
  }
});

describe('named pipes in the file tools', () => {
  it('refuses a pipe no writer opens without opening it, so calls after the fourth still read', async () => {
    // Each abandoned open of a pipe would hold one of libuv's four file-system threads for good.
    const { read, viewFile } = createFileTools({
      fileSystem: nodeFileSystem,
      root: dir,
      capabilities: { imageInput: true, pdfInput: true, mediaInToolResults: true, preset: 'anthropic' },
    });
    for (let call = 0; call < 6; call++)
      for (const tool of [viewFile, read])
        expect(text(await tool.execute({ path: 'pipe.png' }))).toMatch(/^E_NOT_A_FILE: /);
    const after = await read.execute({ path: 'notes.txt' });
    expect([after.isError, text(after)]).toEqual([false, expect.stringContaining('text')]);
  });
});
