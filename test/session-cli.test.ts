import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { captureOutput } from './support/capture-output.js';
import { main } from '../packages/agent/src/cli/main.js';
import type { Message } from '../packages/agent/src/types.js';
import { SessionWriter } from '../packages/agent/src/session/session-writer.js';

let dir: string;
let logPath: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'glimpse-session-cli-'));
  logPath = join(dir, 'log.jsonl');
  const png = (
    await sharp({ create: { width: 1000, height: 1000, channels: 3, background: '#123456' } })
      .png()
      .toBuffer()
  ).toString('base64');
  const shot = (id: string, withSize: boolean): Message => ({
    role: 'toolResult',
    toolCallId: id,
    toolName: 'shot',
    isError: false,
    parts: [{ type: 'image', mediaType: 'image/png', data: png, ...(withSize && { width: 1000, height: 1000 }) }],
  });
  const writer = await SessionWriter.open(logPath, { contentAddressed: true, app: { name: 'cli-test' } });
  await writer.append({ role: 'user', parts: [{ type: 'text', text: 'x'.repeat(400) }] });
  await writer.append({
    role: 'assistant',
    text: '',
    toolCalls: [
      { id: 'a', name: 'shot', arguments: {} },
      { id: 'b', name: 'shot', arguments: {} },
    ],
  });
  await writer.append(shot('a', true));
  // Logged without a pixel size: the command probes it, so the estimate still sees 1000×1000.
  await writer.append(shot('b', false));
  await writer.close();
});

afterEach(() => vi.restoreAllMocks());

describe('glimpse session', () => {
  it('summarises entries, media and per-provider estimates from pixels', async () => {
    const io = captureOutput();
    expect(await main(['session', logPath, '--provider', 'anthropic'])).toBe(0);
    const out = io.stdout.join('');
    expect(out).toContain('entries: 4 (user 1, assistant 1 with 2 tool calls, tool results 2 of which 0 errors)');
    expect(out).toMatch(/media: 2 images \(1 unique\)/);
    expect(out).toContain('torn tail: none');
    // 100 text tokens + 2 × 1,296 (Anthropic's 1000×1000) + the two calls' names and arguments.
    const tokens = Number(/anthropic claude-sonnet-5-5\s+([\d,]+)/.exec(out)![1]!.replace(/,/g, ''));
    expect(tokens).toBe(100 + 2 * 1296 + 2 * Math.ceil('shot{}'.length / 4));
  });

  it('prices current models only: the OpenAI columns are gpt-5.5, a patch model, not the retired gpt-4o', async () => {
    const io = captureOutput();
    expect(await main(['session', logPath])).toBe(0);
    const out = io.stdout.join('');
    const column = (label: string) => Number(new RegExp(`${label}\\s+([\\d,]+)`).exec(out)?.[1]?.replace(/,/g, ''));
    expect(out).not.toContain('gpt-4o');
    // Two 1000×1000 images: 32 × 32 = 1,024 patches of 32 px (under gpt-5.5's 2,500 at high), × 1.2 = 1,229 each
    // (gpt-4o's tiles would be 85 + 4 × 170 = 765); 100 text tokens and the two calls as on the Anthropic line.
    expect(column('openai-chat gpt-5\\.5')).toBe(column('openai-responses gpt-5\\.5'));
    expect(column('openai-chat gpt-5\\.5')).toBe(100 + 2 * 1229 + 2 * Math.ceil('shot{}'.length / 4));
  });

  it('reports a torn tail and exits 0', async () => {
    const torn = join(dir, 'torn.jsonl');
    await writeFile(torn, `${await readFile(logPath)}{"type":"message","at":"20`);
    const io = captureOutput();
    expect(await main(['session', torn])).toBe(0);
    expect(io.stdout.join('')).toContain('torn tail: line 6, 26 bytes never committed');
    expect(io.stderr.join('')).toContain('torn last line 6 dropped');
  });

  it('exits 1 naming the line of a corrupt entry', async () => {
    const corrupt = join(dir, 'corrupt.jsonl');
    const lines = (await readFile(logPath, 'utf8')).split('\n');
    lines[2] = lines[2]!.replace('"role":"assistant"', '"role":"wizard"');
    await writeFile(corrupt, lines.join('\n'));
    const io = captureOutput();
    expect(await main(['session', corrupt])).toBe(1);
    expect(JSON.parse(io.stderr.join(''))).toEqual({
      error: { code: 'E_SESSION_CORRUPT', message: 'line 3: unknown message role "wizard"' },
    });
  });

  it('exits 2 on usage errors', async () => {
    captureOutput();
    expect(await main(['session'])).toBe(2);
    expect(await main(['session', logPath, '--provider', 'acme'])).toBe(2);
  });
});
