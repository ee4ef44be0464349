// The file tools over the real Node file system, where the OS reports what a memory file system cannot:
// a symlink loop, an over-long name, a file used as a folder. Each is an error result the model can act on,
// never a thrown exception.
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
