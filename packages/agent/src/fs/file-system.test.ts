import { execFileSync, spawn } from 'node:child_process';
import { mkdtemp, open, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failsWith } from '../../../../test/support/typed-errors.js';
import { FileError } from './file-error.js';
import type { FileSystem } from './file-system.js';
import { MemoryFileSystem } from './memory-file-system.js';
import { nodeFileSystem } from './node-file-system.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'glimpse-fs-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A stream source that announces `size` bytes but delivers `chunks` chunks of `chunkSize`, counting what was pulled. */
function lyingSource(size: number, chunkSize: number, chunks: number) {
  const pulled = { chunks: 0 };
  return {
    pulled,
    source: {
      size,
      stream: () =>
        new ReadableStream<Uint8Array>({
          pull(controller) {
            if (pulled.chunks === chunks) return controller.close();
            pulled.chunks++;
            controller.enqueue(new Uint8Array(chunkSize).fill(65));
          },
        }),
    },
  };
}

describe('node file system', () => {
  it('reads a file under the cap', async () => {
    await writeFile(join(dir, 'a.txt'), 'hello');
    const bytes = await nodeFileSystem.readBytes(join(dir, 'a.txt'), { maxBytes: 5 });
    expect(new TextDecoder().decode(bytes)).toBe('hello');
  });

  it('reads a file of many chunks whole, at exactly the cap, into a buffer of its own size', async () => {
    const content = new Uint8Array(300_001).map((_, i) => (i * 2_654_435_761) >>> 24);
    await writeFile(join(dir, 'several-chunks.bin'), content);
    const bytes = await nodeFileSystem.readBytes(join(dir, 'several-chunks.bin'), { maxBytes: 300_001 });
    expect(Buffer.from(bytes).equals(Buffer.from(content))).toBe(true);
    expect(bytes.buffer.byteLength).toBe(300_001); // no slack a caller reading .buffer would see
  });

  it('refuses a file stat reports too big, naming size and cap', async () => {
    await writeFile(join(dir, 'big.bin'), new Uint8Array(10_001));
    const error = await failsWith(nodeFileSystem.readBytes(join(dir, 'big.bin'), { maxBytes: 10_000 }), FileError);
    expect(error.code).toBe('E_FILE_TOO_LARGE');
    expect(error.details).toMatchObject({ size: 10_001, maxBytes: 10_000 });
    expect(error.message).toContain('10001 bytes');
  });

  it('stops a stream that grows past the cap after stat (a FIFO: stat says 0 bytes)', async () => {
    const fifo = join(dir, 'growing.fifo');
    execFileSync('mkfifo', [fifo]);
    // A writer that would push 50 MB; the reader must stop one chunk past the 100 KB cap.
    const writer = spawn(process.execPath, [
      '-e',
      `const fs=require('fs');const fd=fs.openSync(${JSON.stringify(fifo)},'w');const b=Buffer.alloc(65536,66);try{for(let i=0;i<800;i++)fs.writeSync(fd,b)}catch{}`,
    ]);
    const error = await failsWith(nodeFileSystem.readBytes(fifo, { maxBytes: 100_000 }), FileError);
    writer.kill();
    expect(error.code).toBe('E_FILE_TOO_LARGE');
    expect(error.details.sizeAtLeast).toBe(100_001);
    expect(error.details.maxBytes).toBe(100_000);
  });

  it('honours an abort signal, before and during the read', async () => {
    await writeFile(join(dir, 'b.txt'), 'x');
    const before = await failsWith(
      nodeFileSystem.readBytes(join(dir, 'b.txt'), { maxBytes: 10, signal: AbortSignal.abort() }),
      FileError,
    );
    expect(before.code).toBe('E_ABORTED');

    const fifo = join(dir, 'slow.fifo');
    execFileSync('mkfifo', [fifo]);
    // The writer sends one chunk then stalls: only the abort can end the read.
    const writer = spawn(process.execPath, [
      '-e',
      `const fs=require('fs');const fd=fs.openSync(${JSON.stringify(fifo)},'w');fs.writeSync(fd,'first');setTimeout(()=>{},30000)`,
    ]);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const during = await failsWith(
      nodeFileSystem.readBytes(fifo, { maxBytes: 1_000_000, signal: controller.signal }),
      FileError,
    );
    writer.kill();
    expect(during.code).toBe('E_ABORTED');
  });

  it('aborts while opening a pipe that no writer ever opens', async () => {
    const fifo = join(dir, 'lonely.fifo');
    execFileSync('mkfifo', [fifo]);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const error = await failsWith(
      nodeFileSystem.readBytes(fifo, { maxBytes: 10, signal: controller.signal }),
      FileError,
      'E_ABORTED',
    );
    // The abort ended the read while the open still waited for a writer (none has opened the pipe yet); a read
    // that ignored the signal would hang here until the test's time limit.
    expect([controller.signal.aborted, error.details.path]).toEqual([true, fifo]);
    // Release the open still pending in libuv's thread pool: a writer lets it complete (and the seam closes it).
    const writer = await open(fifo, 'w');
    await writer.close();
  });

  it('maps missing files and directories to stable codes', async () => {
    expect((await failsWith(nodeFileSystem.readBytes(join(dir, 'nope'), { maxBytes: 10 }), FileError)).code).toBe(
      'E_FILE_NOT_FOUND',
    );
    expect((await failsWith(nodeFileSystem.readBytes(dir, { maxBytes: 10 }), FileError)).code).toBe('E_NOT_A_FILE');
    expect((await failsWith(nodeFileSystem.stat(join(dir, 'nope')), FileError)).code).toBe('E_FILE_NOT_FOUND');
  });
});

describe('memory file system', () => {
  it('refuses from the announced size without pulling a chunk', async () => {
    const { source, pulled } = lyingSource(5_000, 1000, 5);
    const fs = new MemoryFileSystem({ files: { '/big.bin': source } });
    const error = await failsWith(fs.readBytes('/big.bin', { maxBytes: 4_999 }), FileError);
    expect(error.code).toBe('E_FILE_TOO_LARGE');
    expect(error.details).toMatchObject({ size: 5_000 });
    expect(pulled.chunks).toBe(0);
  });

  it('catches a source that delivers more than it announced, and stops pulling', async () => {
    const { source, pulled } = lyingSource(10, 1000, 1_000_000);
    const fs = new MemoryFileSystem({ files: { '/grows.bin': source } });
    const error = await failsWith(fs.readBytes('/grows.bin', { maxBytes: 2_500 }), FileError);
    expect(error.code).toBe('E_FILE_TOO_LARGE');
    expect(error.details.sizeAtLeast).toBe(3_000);
    expect(pulled.chunks).toBeLessThanOrEqual(4); // one chunk past the cap, plus the stream's own read-ahead
  });

  it('reads Blobs (browser File objects) and Uint8Arrays', async () => {
    const fs = new MemoryFileSystem({
      files: { '/a.txt': new Blob(['blob text']), '/b.bin': new Uint8Array([1, 2, 3]) },
    });
    expect(new TextDecoder().decode(await fs.readBytes('/a.txt', { maxBytes: 100 }))).toBe('blob text');
    expect([...(await fs.readBytes('/b.bin', { maxBytes: 3 }))]).toEqual([1, 2, 3]);
    expect((await failsWith(fs.readBytes('/a.txt', { maxBytes: 3 }), FileError)).code).toBe('E_FILE_TOO_LARGE');
  });

  it('aborts a read that is waiting on a source that never answers', async () => {
    const fs = new MemoryFileSystem({
      files: { '/stuck': { stream: () => new ReadableStream<Uint8Array>({ pull: () => new Promise(() => {}) }) } },
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    expect(
      (await failsWith(fs.readBytes('/stuck', { maxBytes: 100, signal: controller.signal }), FileError)).code,
    ).toBe('E_ABORTED');
  });

  it('lists directories and follows symlinks to real paths', async () => {
    const fs = new MemoryFileSystem({
      files: { '/root/a.txt': new Uint8Array(1), '/root/sub/b.txt': new Uint8Array(2) },
      symlinks: { '/root/link': '/etc' },
    });
    expect(await fs.readDirectory('/root')).toEqual(['a.txt', 'link', 'sub']);
    expect(await fs.realPath('/root/sub/../a.txt')).toBe('/root/a.txt');
    expect((await failsWith(fs.realPath('/root/link/passwd'), FileError)).code).toBe('E_FILE_NOT_FOUND');
  });
});

describe('node file system: OS errors as FileError codes', () => {
  it('maps a loop, an over-long name, a file used as a folder and a write to a folder', async () => {
    await symlink(join(dir, 'n-loop-b'), join(dir, 'n-loop-a'));
    await symlink(join(dir, 'n-loop-a'), join(dir, 'n-loop-b'));
    await writeFile(join(dir, 'n.txt'), 'x');
    const codes = {
      loop: (await failsWith(nodeFileSystem.stat(join(dir, 'n-loop-a')), FileError)).code,
      loopRead: (await failsWith(nodeFileSystem.readBytes(join(dir, 'n-loop-a'), { maxBytes: 3 }), FileError)).code,
      loopReal: (await failsWith(nodeFileSystem.realPath(join(dir, 'n-loop-a')), FileError)).code,
      tooLong: (await failsWith(nodeFileSystem.stat(join(dir, 'x'.repeat(300))), FileError)).code,
      fileAsFolder: (await failsWith(nodeFileSystem.readBytes(join(dir, 'n.txt/inner'), { maxBytes: 3 }), FileError))
        .code,
      writeToFolder: (await failsWith(nodeFileSystem.writeBytes(dir, new Uint8Array(1)), FileError)).code,
    };
    expect(codes).toEqual({
      loop: 'E_SYMLINK_LOOP',
      loopRead: 'E_SYMLINK_LOOP',
      loopReal: 'E_SYMLINK_LOOP',
      tooLong: 'E_NAME_TOO_LONG',
      fileAsFolder: 'E_FILE_NOT_FOUND',
      writeToFolder: 'E_NOT_A_FILE',
    });
  });
});

describe('deno file system', () => {
  it('reads bounded and reports stable codes under a real Deno', async () => {
    const deno = join(process.cwd(), 'node_modules/.bin/deno');
    const script = join(dir, 'deno-check.mjs');
    await build({
      stdin: {
        contents: `
          import { denoFileSystem } from './packages/agent/src/fs/deno-file-system.ts';
          const fs = denoFileSystem();
          const dir = Deno.args[0];
          await Deno.writeTextFile(dir + '/d.txt', 'deno bytes');
          const out = {};
          out.text = new TextDecoder().decode(await fs.readBytes(dir + '/d.txt', { maxBytes: 100 }));
          out.tooLarge = await fs.readBytes(dir + '/d.txt', { maxBytes: 3 }).catch((e) => e.code);
          out.missing = await fs.readBytes(dir + '/missing', { maxBytes: 3 }).catch((e) => e.code);
          out.directory = await fs.readBytes(dir, { maxBytes: 3 }).catch((e) => e.code);
          out.aborted = await fs.readBytes(dir + '/d.txt', { maxBytes: 100, signal: AbortSignal.abort() }).catch((e) => e.code);
          out.listed = (await fs.readDirectory(dir)).includes('d.txt');
          await Deno.symlink(dir + '/loop-b', dir + '/loop-a');
          await Deno.symlink(dir + '/loop-a', dir + '/loop-b');
          out.loop = await fs.stat(dir + '/loop-a').catch((e) => e.code);
          out.loopRead = await fs.readBytes(dir + '/loop-a', { maxBytes: 3 }).catch((e) => e.code);
          out.loopReal = await fs.realPath(dir + '/loop-a').catch((e) => e.code);
          out.tooLong = await fs.stat(dir + '/' + 'x'.repeat(300)).catch((e) => e.code);
          out.fileAsFolder = await fs.readBytes(dir + '/d.txt/inner', { maxBytes: 3 }).catch((e) => e.code);
          out.writeToFolder = await fs.writeBytes(dir, new Uint8Array(1)).catch((e) => e.code);
          console.log(JSON.stringify(out));`,
        resolveDir: process.cwd(),
        loader: 'ts',
      },
      bundle: true,
      format: 'esm',
      outfile: script,
      logLevel: 'silent',
    });
    const output = execFileSync(deno, ['run', '--allow-read', '--allow-write', script, dir], { encoding: 'utf8' });
    expect(JSON.parse(output)).toEqual({
      text: 'deno bytes',
      tooLarge: 'E_FILE_TOO_LARGE',
      missing: 'E_FILE_NOT_FOUND',
      directory: 'E_NOT_A_FILE',
      aborted: 'E_ABORTED',
      listed: true,
      loop: 'E_SYMLINK_LOOP',
      loopRead: 'E_SYMLINK_LOOP',
      loopReal: 'E_SYMLINK_LOOP',
      tooLong: 'E_NAME_TOO_LONG',
      fileAsFolder: 'E_FILE_NOT_FOUND',
      writeToFolder: 'E_NOT_A_FILE',
    });
  });
});

// Keeps the interface honest: every implementation is a FileSystem.
const implementations: FileSystem[] = [nodeFileSystem, new MemoryFileSystem()];
void implementations;
