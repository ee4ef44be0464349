// Drives `glimpse mcp` as an MCP client would: the SDK's own Client over stdio, against a CLI bundled
// fresh from the TypeScript sources (so the test never runs a stale dist/), with its view_file worker beside it.
import { copyFile, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PRESETS } from '@glimpse/media';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { buildCliForTests } from './support/build-cli.js';
import { decodeIndependently, meanAbsDiff } from './support/pixels.js';
import { assertStrictlyValid } from './support/strict-oracle.js';
import { PDFDocument, PDFName } from 'pdf-lib';
import sharp from 'sharp';
import { execFileSync, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let BUNDLE: string;
const SCREENSHOT = 'Screenshot 2026-11-29 at 10.41.07\u202FPM.png';
const PRESET = PRESETS.anthropic;
const VECTORS = fileURLToPath(new URL('./vectors/inputs/', import.meta.url));

let dir: string;
let root: string;
let client: Client;
let stderr = '';

async function call(name: string, args: Record<string, unknown>, on: Client = client): Promise<CallToolResult> {
  const result = await on.callTool({ name, arguments: args });
  if (!('content' in result) || !Array.isArray(result.content)) throw new Error('expected content');
  return { content: result.content, isError: result.isError === true };
}

const texts = (result: CallToolResult) => result.content.flatMap((c) => (c.type === 'text' ? [c.text] : [])).join('\n');

/** The HEIC file decoded by libheif's heif-convert, to RGBA. */
async function heifConvert(path: string) {
  const png = join(dir, `${Math.random().toString(36).slice(2)}.png`);
  execFileSync('heif-convert', [path, png], { stdio: 'pipe' });
  return decodeIndependently(await readFile(png));
}

async function imageOf(result: CallToolResult) {
  const images = result.content.filter((c) => c.type === 'image');
  expect(images).toHaveLength(1);
  const image = images[0]!;
  if (image.type !== 'image') throw new Error('unreachable');
  const bytes = Buffer.from(image.data, 'base64');
  const meta = await sharp(bytes).metadata();
  return {
    mimeType: image.mimeType,
    width: meta.width,
    height: meta.height,
    format: meta.format,
    bytes: bytes.byteLength,
  };
}

beforeAll(async () => {
  BUNDLE = await buildCliForTests('glimpse-mcp-test');

  dir = await mkdtemp(join(tmpdir(), 'glimpse-mcp-'));
  root = join(dir, 'root');
  await mkdir(root);
  await writeFile(join(dir, 'secret.txt'), 'outside the root');
  await symlink(join(dir, 'secret.txt'), join(root, 'escape.txt'));
  await sharp({ create: { width: 2880, height: 1800, channels: 4, background: '#3366ccff' } })
    .png()
    .toFile(join(root, SCREENSHOT));
  const noise = { type: 'gaussian' as const, mean: 128, sigma: 40 };
  await sharp({ create: { width: 4000, height: 3000, channels: 3, background: '#000', noise } })
    .jpeg({ quality: 92 })
    .toFile(join(root, 'photo.jpg'));
  const pdf = await PDFDocument.create();
  for (let i = 1; i <= 4; i++) pdf.addPage([300 + i, 400]);
  await writeFile(join(root, 'report.pdf'), await pdf.save());
  await writeFile(
    join(root, 'diagram.svg'),
    '<svg xmlns="http://www.w3.org/2000/svg" width="800" height="400"><circle cx="400" cy="200" r="150" fill="#09f"/></svg>',
  );
  await writeFile(
    join(root, 'garbage.png'),
    Uint8Array.from({ length: 5000 }, (_, i) => (i * 7919 + 13) % 251),
  );
  await writeFile(join(root, 'notes.txt'), 'first line\nsecond line\n');
  await copyFile(join(VECTORS, 'grid-3x2-irot.heic'), join(root, 'phone.heic'));
  await symlink('loop-b.png', join(root, 'loop-a.png'));
  await symlink('loop-a.png', join(root, 'loop-b.png'));

  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BUNDLE, 'mcp', '--root', root, '--provider', 'anthropic'],
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  client = new Client({ name: 'glimpse-test', version: '0.0.0' });
  await client.connect(transport);
});

afterAll(async () => {
  await client?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('glimpse mcp over stdio, with the SDK client', () => {
  it('lists view_file and read with their schemas', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['read', 'view_file']);
    const view = tools.find((t) => t.name === 'view_file')!;
    expect(view.inputSchema).toMatchObject({
      type: 'object',
      required: ['path'],
      properties: { path: { type: 'string' }, pages: { type: 'string' } },
    });
  });

  it('views a macOS screenshot named with a plain space, fitted for the preset', async () => {
    const result = await call('view_file', { path: 'Screenshot 2026-11-29 at 10.41.07 PM.png' });
    expect(result.isError).toBe(false);
    const image = await imageOf(result);
    expect(image).toMatchObject({ mimeType: 'image/png', format: 'png', width: 1568, height: 980 });
    expect(texts(result)).toContain('\\u{202F}PM.png');
    expect(texts(result)).toContain('multiply coordinates in it by 1.837');
  });

  it('views a 12-megapixel photo within the preset edge and byte limits', async () => {
    const result = await call('view_file', { path: 'photo.jpg' });
    const image = await imageOf(result);
    expect(image.mimeType).toBe('image/jpeg');
    expect(Math.max(image.width, image.height)).toBeLessThanOrEqual(PRESET.maxEdge);
    expect(image.bytes).toBeLessThanOrEqual(PRESET.maxBytes);
    expect(image.width / image.height).toBeCloseTo(4 / 3, 2);
  });

  it('returns a PDF as an embedded application/pdf resource with a text summary, and page ranges', async () => {
    const whole = await call('view_file', { path: 'report.pdf' });
    const resources = whole.content.filter((c) => c.type === 'resource');
    expect(resources).toHaveLength(1);
    const resource = resources[0]!;
    if (resource.type !== 'resource' || !('blob' in resource.resource)) throw new Error('expected a blob resource');
    expect(resource.resource.mimeType).toBe('application/pdf');
    // Relative to --root: the server's own paths stay private.
    expect(resource.resource.uri).toBe('report.pdf');
    expect((await PDFDocument.load(Buffer.from(resource.resource.blob, 'base64'))).getPageCount()).toBe(4);
    expect(texts(whole)).toContain('report.pdf: PDF, 4 pages');

    const range = await call('view_file', { path: 'report.pdf', pages: '3-4' });
    const sliced = range.content.find((c) => c.type === 'resource');
    if (sliced?.type !== 'resource' || !('blob' in sliced.resource)) throw new Error('expected a blob resource');
    const doc = await PDFDocument.load(Buffer.from(sliced.resource.blob, 'base64'));
    expect(doc.getPages().map((p) => p.getWidth())).toEqual([303, 304]);
  });

  it('renders PDF pages as images when asked (as: "images"), several in one result', async () => {
    const result = await call('view_file', { path: 'report.pdf', as: 'images', pages: '2-3' });
    expect(result.isError).toBeFalsy();
    const images = result.content.flatMap((c) => (c.type === 'image' ? [c] : []));
    expect(images.map((image) => image.mimeType)).toEqual(['image/png', 'image/png']);
    for (const image of images) {
      const meta = await sharp(Buffer.from(image.data, 'base64')).metadata();
      expect(Math.max(meta.width ?? 0, meta.height ?? 0)).toBe(PRESET.maxEdge);
    }
    expect(texts(result)).toContain('report.pdf: PDF, 4 pages');
    expect(texts(result)).toContain('The images follow in page order: 2, 3.');
  });

  it('rasterizes an SVG to PNG image content', async () => {
    const image = await imageOf(await call('view_file', { path: 'diagram.svg' }));
    expect(image).toMatchObject({ mimeType: 'image/png', width: 800, height: 400 });
  });

  it('decodes a HEIC photo in its view worker, as the CLI does (@glimpse/heif installed)', async () => {
    const result = await call('view_file', { path: 'phone.heic' });
    expect(result.isError, texts(result)).toBe(false);
    const image = result.content.find((c) => c.type === 'image');
    if (image?.type !== 'image') throw new Error(`expected an image, got ${texts(result)}`);
    expect(['image/jpeg', 'image/png']).toContain(image.mimeType);
    const bytes = new Uint8Array(Buffer.from(image.data, 'base64'));
    assertStrictlyValid(bytes, image.mimeType, 'view_file of phone.heic');
    // libheif's own decoder (heif-convert) is the reference: same upright size (the 3×2 grid turned by irot).
    const sent = await decodeIndependently(bytes);
    const expected = await heifConvert(join(root, 'phone.heic'));
    expect({ width: sent.width, height: sent.height }).toEqual({ width: expected.width, height: expected.height });
    expect(meanAbsDiff(sent.data, expected.data)).toBeLessThan(8);
  });

  it('answers a garbage file with a text note and isError', async () => {
    const result = await call('view_file', { path: 'garbage.png' });
    expect(result.isError).toBe(true);
    expect(result.content.every((c) => c.type === 'text')).toBe(true);
    expect(texts(result)).toMatch(/^E_UNSUPPORTED: garbage\.png/);
  });

  it('refuses paths that leave --root, by .. or through a symlink', async () => {
    for (const path of ['../secret.txt', join(dir, 'secret.txt'), 'escape.txt']) {
      for (const tool of ['view_file', 'read']) {
        const result = await call(tool, { path });
        expect(result.isError).toBe(true);
        expect(texts(result)).toMatch(/^E_PATH_OUTSIDE_ROOT/);
        expect(texts(result)).not.toContain('outside the root'); // the secret's content
      }
    }
    // The root, hidden from the client, is named in words a model reads as a place (it was "directory .").
    expect(texts(await call('read', { path: '../secret.txt' }))).toBe(
      "E_PATH_OUTSIDE_ROOT: ../secret.txt is outside the server's root directory, the only directory these tools may read (the path leads out of it). Use a path inside it; relative paths start there.",
    );
  });

  it('answers a symlink loop with E_SYMLINK_LOOP from both tools, not a server failure', async () => {
    for (const tool of ['view_file', 'read']) {
      const result = await call(tool, { path: 'loop-a.png' });
      expect(result.isError).toBe(true);
      expect(texts(result)).toMatch(/^E_SYMLINK_LOOP: loop-a\.png cannot be opened: its symlinks form a loop/);
      expect(texts(result)).not.toContain(dir);
    }
    expect(stderr).toBe('');
  });

  it('reads text with line numbers', async () => {
    expect(texts(await call('read', { path: 'notes.txt' }))).toBe('1\tfirst line\n2\tsecond line');
    expect(texts(await call('read', { path: 'photo.jpg' }))).toContain('Call view_file with this path');
  });

  it('answers ten parallel calls, each correctly', async () => {
    const paths = [
      'photo.jpg',
      SCREENSHOT,
      'report.pdf',
      'diagram.svg',
      'garbage.png',
      'photo.jpg',
      'notes.txt',
      'report.pdf',
      SCREENSHOT,
      'diagram.svg',
    ];
    const results = await Promise.all(paths.map((path) => call('view_file', { path })));
    expect(results).toHaveLength(10);
    // What each path must give, stated for every path and compared whole, so no call escapes the check.
    const expected = (path: string) =>
      path.endsWith('.pdf')
        ? { kinds: ['text', 'resource'], isError: false }
        : path === 'garbage.png' || path === 'notes.txt'
          ? { kinds: ['text'], isError: true }
          : { kinds: ['text', 'image'], isError: false };
    expect(results.map((result) => ({ kinds: result.content.map((c) => c.type), isError: result.isError }))).toEqual(
      paths.map(expected),
    );
    for (const i of [0, 1, 3]) {
      const image = await imageOf(results[i]!);
      expect(Math.max(image.width, image.height)).toBeLessThanOrEqual(PRESET.maxEdge);
    }
    expect(stderr).toBe('');
  });
});

/**
 * A PDF page that takes minutes to draw: 20,000 triangles, each across the whole page. PDFium draws every one
 * (1,000 took 5.6 s of CPU at 1568 px, load ~13), and nothing about a page's drawing cost can be known before
 * drawing it, as for heavy maps and CAD drawings, so the server's time budget is what stops it. The content
 * stream deflates to a few KB. Viewed `as: "images"`, so the anthropic route renders it instead of sending it.
 * (This was an SVG with a marker on each of 100,000 vertices until markers joined the SVG cost model.)
 */
async function slowPdf(): Promise<Uint8Array> {
  const document = await PDFDocument.create();
  const page = document.addPage([612, 792]);
  const triangles = Array.from(
    { length: 20_000 },
    (_, i) => `${(i % 7) / 7} g 0 0 m 612 ${i % 792} l ${i % 612} 792 l f`,
  );
  page.node.set(PDFName.of('Contents'), document.context.register(document.context.flateStream(triangles.join('\n'))));
  return document.save();
}
const SLOW_VIEW = { path: 'slow.pdf', as: 'images' };
/**
 * The server's view_file budget. It must hold any honest view with room to spare — the screenshot below,
 * a freshly spawned worker included, on a loaded 2-core CI machine — so the tests check the order of
 * events (the read answers while the slow view runs; the slow view ends at the budget, not before), not speed.
 */
const BUDGET_MS = 10_000;

/** CPU seconds the process has used (user + system), from /proc; undefined off Linux. */
async function cpuSeconds(pid: number): Promise<number | undefined> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  if (stat === undefined) return undefined;
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ is 100 on Linux)
}

/**
 * Whether the process goes idle (under 0.03 CPU s in a 300 ms window) within `withinMs`: a blur still running
 * burns 0.06-0.3 s per window even on a loaded machine. True off Linux, where it cannot be measured.
 */
async function goesQuiet(pid: number | undefined, withinMs: number): Promise<boolean> {
  if (pid === undefined) return true;
  const deadline = performance.now() + withinMs;
  let last = await cpuSeconds(pid);
  while (last !== undefined && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 300));
    const now = await cpuSeconds(pid);
    if (now === undefined || now - last < 0.03) return true;
    last = now;
  }
  return last === undefined;
}

describe('glimpse mcp --timeout-ms: a slow file blocks nothing', () => {
  let slowClient: Client;
  let serverPid: number | undefined;

  beforeAll(async () => {
    await writeFile(join(root, 'slow.pdf'), await slowPdf());
    await writeFile(join(root, 'twelve.txt'), 'just twelve\n'); // 12 bytes
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BUNDLE, 'mcp', '--root', root, '--provider', 'anthropic', '--timeout-ms', String(BUDGET_MS)],
      stderr: 'pipe',
    });
    slowClient = new Client({ name: 'glimpse-test-timeout', version: '0.0.0' });
    await slowClient.connect(transport);
    serverPid = transport.pid ?? undefined;
  });

  afterAll(async () => {
    await slowClient?.close();
  });

  it('answers E_TIMEOUT at the budget, answers a parallel read meanwhile, and really stops the render', async () => {
    let slowSettled = false;
    const slow = call('view_file', SLOW_VIEW, slowClient).then((result) => {
      slowSettled = true;
      return result;
    });
    await new Promise((resolve) => setTimeout(resolve, 300)); // the worker is painting by now

    const read = await call('read', { path: 'twelve.txt' }, slowClient);
    expect(texts(read)).toBe('1\tjust twelve');
    // The order of events, not speed: the read was answered while the slow view was still running.
    expect(slowSettled).toBe(false);

    // The answer is the pool's timeout (its timer is the only source of this text), not the render's end, which
    // takes minutes: a pool that waited for it would run into the test's own time limit.
    const result = await slow;
    expect(result.isError).toBe(true);
    expect(result.content.every((c) => c.type === 'text')).toBe(true);
    expect(texts(result)).toMatch(new RegExp(`^E_TIMEOUT: slow\\.pdf took longer than ${BUDGET_MS / 1000} s`));
    expect(texts(result)).toContain('export it to PNG or JPEG');

    // Terminating the worker stopped the WASM render: the server burns no CPU afterwards.
    expect(await goesQuiet(serverPid, 2000)).toBe(true);
  });

  it('stops the render when the client cancels the call', async () => {
    const controller = new AbortController();
    const cancelled = slowClient.callTool({ name: 'view_file', arguments: SLOW_VIEW }, undefined, {
      signal: controller.signal,
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    controller.abort();
    await expect(cancelled).rejects.toThrow();
    // Quiet soon after the cancel, not only once the budget runs out.
    expect(await goesQuiet(serverPid, 1500)).toBe(true);
  });

  it('still views a screenshot correctly after a timeout', async () => {
    const result = await call('view_file', { path: SCREENSHOT }, slowClient);
    expect(result.isError).toBe(false);
    expect(await imageOf(result)).toMatchObject({ mimeType: 'image/png', format: 'png', width: 1568, height: 980 });
    expect(texts(result)).toContain('multiply coordinates in it by 1.837');
  });
});

describe('glimpse mcp: JSON-RPC hygiene and private paths', () => {
  /** A raw stdio session: write lines, read one JSON reply per request. */
  async function rawSession() {
    const child = spawn(process.execPath, [BUNDLE, 'mcp', '--root', root], { stdio: ['pipe', 'pipe', 'pipe'] });
    const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    const reply = async (line: string) => {
      child.stdin.write(`${line}\n`);
      const next = await lines.next();
      return JSON.parse(String(next.value));
    };
    return { reply, close: () => child.kill() };
  }

  it('answers malformed JSON-RPC: -32700, -32600 and -32602 with one line, never silence', async () => {
    const session = await rawSession();
    try {
      expect(await session.reply('{"jsonrpc": "2.0", "id": 1, "method": "tools/list"')).toEqual({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32700, message: expect.stringMatching(/^Parse error/) },
      });
      expect(await session.reply('{"jsonrpc": "2.0", "id": 2}')).toMatchObject({ id: 2, error: { code: -32600 } });
      expect(await session.reply('{"jsonrpc": "1.0", "id": 3, "method": "ping"}')).toMatchObject({
        id: 3,
        error: { code: -32600, message: 'Invalid Request: "jsonrpc" must be "2.0".' },
      });
      expect(await session.reply('[{"jsonrpc": "2.0", "id": 4, "method": "ping"}]')).toMatchObject({
        id: null,
        error: { code: -32600 },
      });
      const init = await session.reply(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 5,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
        }),
      );
      expect(init.result.serverInfo.name).toBe('glimpse');
      expect(JSON.stringify(init)).not.toContain(root);
      const bad = await session.reply(
        JSON.stringify({ jsonrpc: '2.0', id: 6, method: 'tools/call', params: { name: 7 } }),
      );
      expect(bad).toMatchObject({
        id: 6,
        error: { code: -32602, message: expect.stringMatching(/^Invalid params for tools\/call: params\.name: /) },
      });
      expect(bad.error.message).not.toContain('\n');
      // Still serving after all of that.
      expect(await session.reply(JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'ping' }))).toEqual({
        jsonrpc: '2.0',
        id: 7,
        result: {},
      });
    } finally {
      session.close();
    }
  });

  it('refuses arguments the tool does not declare', async () => {
    const result = await call('view_file', { path: 'report.pdf', page: '2' });
    expect(result.isError).toBe(true);
    expect(texts(result)).toMatch(
      /^E_INVALID_ARGUMENTS: view_file takes only "path", "pages", "as"; it does not know "page"/,
    );
    expect((await call('read', { path: 'notes.txt', lines: 3 })).isError).toBe(true);
  });

  it('shows no absolute server path in any text a client sees', async () => {
    const seen = [
      await call('view_file', { path: 'missing.png' }),
      await call('read', { path: 'missing.txt' }),
      await call('view_file', { path: 'escape.txt' }),
      await call('view_file', { path: SCREENSHOT }),
      await call('read', { path: '.' }),
    ];
    for (const result of seen) expect(JSON.stringify(result.content)).not.toContain(dir);
    expect(texts(seen[0]!)).toContain('missing.png');
    expect(client.getInstructions()).not.toContain(dir);
  });
});
