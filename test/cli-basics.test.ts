// The CLI basics, on the real process (built from source as scripts/build.mjs builds it): --version,
// `-` for stdin and stdout, a broken pipe, the Unicode-space name fallback, the -o extension warning,
// and that each command's start-up loads only its own dependencies.
import { spawn } from 'node:child_process';
import { copyFile, mkdtemp, readFile, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { process as fitMedia } from '@glimpse/media';
import type { Metafile } from 'esbuild';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { version } from '../packages/agent/package.json';
import { main } from '../packages/agent/src/cli/main.js';
import { buildAgent } from '../scripts/build-agent.mjs';
import { buildCliForTests } from './support/build-cli.js';
import { decodeIndependently } from './support/pixels.js';

const PHOTO = resolve('samples/photo-exif6.jpg'); // 4000×3000 stored sideways (EXIF 6)
let cli: string;
let metafile: Metafile;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'glimpse-cli-basics-'));
  cli = await buildCliForTests('glimpse-cli-basics-test');
  // The import graph of the real build (npm packages and @glimpse/media external), without writing it.
  metafile = await buildAgent({ outdir: join(dir, 'dist'), write: false });
});

interface Run {
  code: number | null;
  stdout: Buffer;
  stderr: string;
}

/** Runs the CLI with `stdin` piped in (or nothing); `stopReadingAfter` closes stdout after that many bytes, as `| head -c N` does. */
function runCli(
  args: string[],
  { stdin, stopReadingAfter }: { stdin?: Uint8Array; stopReadingAfter?: number } = {},
): Promise<Run> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [cli, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let received = 0;
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out.push(chunk);
      received += chunk.byteLength;
      if (stopReadingAfter !== undefined && received >= stopReadingAfter) child.stdout.destroy();
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdin.on('error', () => undefined); // a command that never reads stdin may exit first
    child.stdin.end(stdin);
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout: Buffer.concat(out), stderr }));
  });
}

const json = (text: string | Buffer) => JSON.parse(String(text).trim()) as Record<string, unknown>;

describe('glimpse --version', () => {
  it("prints the agent package's version", async () => {
    const { code, stdout, stderr } = await runCli(['--version']);
    expect({ code, stdout: stdout.toString(), stderr }).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });
});

describe('- for stdin and stdout', () => {
  it('inspect - reads stdin and answers as for the file', async () => {
    const fromFile = await runCli(['inspect', PHOTO]);
    const fromStdin = await runCli(['inspect', '-'], { stdin: await readFile(PHOTO) });
    expect(fromStdin.code).toBe(0);
    expect(json(fromStdin.stdout)).toEqual(json(fromFile.stdout));
    expect(json(fromStdin.stdout)).toMatchObject({
      mediaType: 'image/jpeg',
      width: 4000,
      height: 3000,
      orientation: 6,
    });
  });

  it('process - -o - writes only the image bytes to stdout and the summary to stderr', async () => {
    const { code, stdout, stderr } = await runCli(['process', '-', '-o', '-'], { stdin: await readFile(PHOTO) });
    expect(code).toBe(0);
    const summary = json(stderr);
    expect(summary).toMatchObject({
      mediaType: 'image/jpeg',
      width: 1500,
      height: 2000,
      bytes: stdout.byteLength,
      output: '-',
    });
    const decoded = await decodeIndependently(new Uint8Array(stdout));
    expect({ width: decoded.width, height: decoded.height }).toEqual({ width: 1500, height: 2000 });
  });

  it('-o /dev/stdout is stdout too: bytes and summary never mix', async () => {
    const { code, stdout, stderr } = await runCli(['process', PHOTO, '-o', '/dev/stdout']);
    expect(code).toBe(0);
    expect(json(stderr)).toMatchObject({ mediaType: 'image/jpeg', bytes: stdout.byteLength, output: '/dev/stdout' });
    expect([...stdout.subarray(0, 2), ...stdout.subarray(-2)]).toEqual([0xff, 0xd8, 0xff, 0xd9]);
  });

  it('refuses -o - when stdout is a terminal, before any work (exit 2)', async () => {
    const tty = Object.getOwnPropertyDescriptor(process.stdout, 'isTTY');
    Object.defineProperty(process.stdout, 'isTTY', { value: true, configurable: true });
    const err: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      err.push(String(chunk));
      return true;
    });
    try {
      expect(await main(['process', PHOTO, '-o', '-'])).toBe(2);
      expect(err.join('')).toContain('stdout, which is a terminal');
    } finally {
      vi.restoreAllMocks();
      if (tty) Object.defineProperty(process.stdout, 'isTTY', tty);
      else delete (process.stdout as { isTTY?: boolean }).isTTY;
    }
  });
});

describe('a reader that stops early', () => {
  it('process -o - | head -c 100: exit 0, nothing on stderr', async () => {
    const { code, stdout, stderr } = await runCli(['process', PHOTO, '-o', '-'], { stopReadingAfter: 100 });
    expect(stdout.byteLength).toBeGreaterThanOrEqual(100);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
  });
});

describe('names typed with plain spaces', () => {
  const typed = 'Screenshot 2026-11-29 at 10.41.07 PM.jpg';
  const onDisk = 'Screenshot 2026-11-29 at 10.41.07\u202fPM.jpg';

  beforeAll(async () => {
    await copyFile(PHOTO, join(dir, onDisk));
    await writeFile(
      join(dir, 'demo\u00a0log.jsonl'),
      `${JSON.stringify({ type: 'header', format: 'glimpse-session', version: 1, created: '2026-11-29T23:32:00.847Z', app: { name: 'test' } })}\n`,
    );
  });

  it('inspect finds the file whose name has a narrow no-break space, and says so', async () => {
    const { code, stdout, stderr } = await runCli(['inspect', join(dir, typed)]);
    expect(code).toBe(0);
    expect(json(stdout)).toMatchObject({ mediaType: 'image/jpeg', width: 4000 });
    expect(stderr).toContain('instead');
    expect(stderr).toContain('\\u{202F}');
  });

  it('process finds it too', async () => {
    const { code, stdout, stderr } = await runCli(['process', join(dir, typed), '-o', join(dir, 'fitted.jpg')]);
    expect(code).toBe(0);
    expect(stderr).toContain('instead');
    expect(json(stdout)).toMatchObject({ mediaType: 'image/jpeg', width: 1500, height: 2000 });
  });

  it('session finds a log named with a no-break space', async () => {
    const { code, stdout } = await runCli(['session', join(dir, 'demo log.jsonl')]);
    expect(code).toBe(0);
    expect(stdout.toString()).toContain('demo\u00a0log.jsonl');
  });

  it('a missing name is still E_FILE_NOT_FOUND', async () => {
    const { code, stderr } = await runCli(['inspect', join(dir, 'Screenshot nowhere.png')]);
    expect(code).toBe(1);
    expect(json(stderr)).toMatchObject({ error: { code: 'E_FILE_NOT_FOUND' } });
  });
});

describe("the README's main job", () => {
  it('prints the fields the README shows, warnings included, with the same facts', async () => {
    const readme = await readFile('README.md', 'utf8');
    const shown = /npx glimpse process samples\/photo-exif6\.jpg -o \/tmp\/photo\.jpg[\s\S]*?```json\n(.*)\n```/.exec(
      readme,
    );
    expect(shown, 'README.md has the main-job command and its JSON').not.toBeNull();
    const documented = json(shown![1]!);
    const { code, stdout } = await runCli(['process', PHOTO, '-o', join(dir, 'photo.jpg')]);
    expect(code).toBe(0);
    const printed = json(stdout);
    expect(Object.keys(printed)).toEqual(Object.keys(documented));
    const facts = ({ mediaType, width, height, steps, warnings }: Record<string, unknown>) => ({
      mediaType,
      width,
      height,
      steps,
      warnings,
    });
    expect(facts(printed)).toEqual(facts(documented));
  });

  it("the TypeScript example's fitted size is what process() gives", async () => {
    const readme = await readFile('README.md', 'utf8');
    const claim = /process\(photo, \{ preset: 'anthropic' \}\); \/\/ fitted\.data: an upright (\d+)×(\d+) (\w+)/.exec(
      readme,
    );
    expect(claim, 'README.md says the fitted size').not.toBeNull();
    const fitted = await fitMedia(new Uint8Array(await readFile(PHOTO)), { preset: 'anthropic' });
    expect([fitted.width, fitted.height, fitted.mediaType]).toEqual([
      Number(claim![1]),
      Number(claim![2]),
      `image/${claim![3]!.toLowerCase()}`,
    ]);
  });
});

describe('OS errors are FileError codes, never E_INTERNAL', () => {
  it.each([
    ['a symlink loop', 'loop-a.png', 'E_SYMLINK_LOOP'],
    ['an over-long name', `${'x'.repeat(300)}.png`, 'E_NAME_TOO_LONG'],
    ['a file used as a folder', 'plain.txt/inner.png', 'E_FILE_NOT_FOUND'],
  ])('inspect and process of %s', async (_, name, errorCode) => {
    await writeFile(join(dir, 'plain.txt'), 'text');
    await symlink('loop-b.png', join(dir, 'loop-a.png')).catch(() => undefined);
    await symlink('loop-a.png', join(dir, 'loop-b.png')).catch(() => undefined);
    for (const command of ['inspect', 'process']) {
      const { code, stderr } = await runCli([command, join(dir, name)]);
      expect(code).toBe(1);
      expect(json(stderr)).toMatchObject({ error: { code: errorCode } });
    }
  });
});

describe('-o extension', () => {
  it('warns when OUT is named like another type than the bytes written', async () => {
    const out = join(dir, 'photo.png');
    const { code, stdout, stderr } = await runCli(['process', PHOTO, '-o', out]);
    expect(code).toBe(0);
    expect(stderr).toBe(
      'glimpse: warning: photo.png is named like image/png but holds image/jpeg (the output type follows the input and the limits, never the name); name it photo.jpg\n',
    );
    expect(json(stdout)).toMatchObject({ mediaType: 'image/jpeg', output: out });
    expect([...(await readFile(out)).subarray(0, 2)]).toEqual([0xff, 0xd8]);
  });

  it('says nothing when they agree, or when the extension names no type', async () => {
    for (const name of ['photo.jpeg', 'photo.bin']) {
      const { code, stderr } = await runCli(['process', PHOTO, '-o', join(dir, name)]);
      expect({ name, code, stderr }).toEqual({ name, code: 0, stderr: '' });
    }
  });
});

describe('start-up loads only what the command needs', () => {
  afterEach(() => vi.restoreAllMocks());

  /** npm packages a command's start-up imports: the CLI entry's static imports plus its command chunk's. */
  function packagesLoadedBy(command: string | undefined): Set<string> {
    const outputs = metafile.outputs;
    const entry = Object.keys(outputs).find(
      (path) => outputs[path]?.entryPoint === 'packages/agent/src/entries/cli.ts',
    );
    const chunk = Object.keys(outputs).find(
      (path) => outputs[path]?.entryPoint === `packages/agent/src/cli/${command}.ts`,
    );
    const queue = [entry, ...(command === undefined ? [] : [chunk])];
    expect(queue.every((path) => path !== undefined)).toBe(true);
    const seen = new Set<string>();
    const packages = new Set<string>();
    for (let path = queue.pop(); path !== undefined; path = queue.pop()) {
      if (seen.has(path)) continue;
      seen.add(path);
      for (const imported of outputs[path]?.imports ?? []) {
        if (imported.kind !== 'import-statement') continue;
        if (imported.external)
          packages.add(
            imported.path.startsWith('node:')
              ? 'node:'
              : imported.path
                  .split('/')
                  .slice(0, imported.path.startsWith('@') ? 2 : 1)
                  .join('/'),
          );
        else queue.push(imported.path);
      }
    }
    return packages;
  }

  it('--help and --version load no npm package (built-ins only); inspect and process only the media core; mcp the MCP SDK', () => {
    expect([...packagesLoadedBy(undefined)].filter((name) => name !== 'node:')).toEqual([]); // built-ins at most
    expect([...packagesLoadedBy('inspect')].sort()).toEqual(['@glimpse/media', 'node:']);
    expect([...packagesLoadedBy('process')].sort()).toEqual(['@glimpse/media', 'node:']);
    expect(packagesLoadedBy('mcp')).toContain('@modelcontextprotocol/sdk');
  });
});
