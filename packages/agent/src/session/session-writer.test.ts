import { createHash } from 'node:crypto';
import { mkdtemp, readFile, writeFile, appendFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { failsWith } from '../../../../test/support/typed-errors.js';
import type { Message } from '../types.js';
import { SessionError } from './session-error.js';
import { loadSession } from './load-session.js';
import { SessionWriter } from './session-writer.js';

let screenshot: string;
let otherImage: string;

beforeAll(async () => {
  // A noisy 400×300 screenshot-sized PNG: big enough that storing it 50 times would show.
  const noise = Buffer.alloc(400 * 300 * 3);
  for (let i = 0; i < noise.length; i++) noise[i] = (i * 2654435761) >>> 24;
  screenshot = (
    await sharp(noise, { raw: { width: 400, height: 300, channels: 3 } })
      .png()
      .toBuffer()
  ).toString('base64');
  otherImage = (
    await sharp({ create: { width: 20, height: 10, channels: 3, background: '#c04020' } })
      .jpeg()
      .toBuffer()
  ).toString('base64');
});

async function tempLog(): Promise<string> {
  return join(await mkdtemp(join(tmpdir(), 'glimpse-session-')), 'session.jsonl');
}

function screenshotResult(index: number, data: string): Message {
  return {
    role: 'toolResult',
    toolCallId: `call-${index}`,
    toolName: 'screenshot',
    isError: false,
    parts: [
      { type: 'text', text: `screen ${index}` },
      { type: 'image', mediaType: 'image/png', data, width: 400, height: 300 },
    ],
  };
}

describe('SessionWriter', () => {
  it('writes a header line and one line per entry, in pi image shape', async () => {
    const path = await tempLog();
    const writer = await SessionWriter.open(path, {
      app: { name: 'test-app', version: '1.2.3' },
      now: () => new Date('2026-01-02T03:04:05Z'),
    });
    await writer.append({ role: 'user', parts: [{ type: 'text', text: 'look' }] });
    await writer.append(screenshotResult(1, otherImage));
    await writer.close();
    const lines = (await readFile(path, 'utf8')).split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[3]).toBe('');
    expect(JSON.parse(lines[0]!)).toEqual({
      type: 'header',
      format: 'glimpse-session',
      version: 1,
      created: '2026-01-02T03:04:05.000Z',
      app: { name: 'test-app', version: '1.2.3' },
    });
    const result = JSON.parse(lines[2]!);
    expect(result.message.content[1]).toEqual({
      type: 'image',
      data: otherImage,
      mimeType: 'image/png',
      width: 400,
      height: 300,
    });
    expect(Object.keys(result.message.content[1]).slice(0, 3)).toEqual(['type', 'data', 'mimeType']);
  });

  it('writes a media line in the exact shape of the format, and resumes with it', async () => {
    const path = await tempLog();
    const writer = await SessionWriter.open(path, { now: () => new Date('2026-01-02T03:04:05Z') });
    await writer.append(screenshotResult(1, otherImage));
    const sha256 = createHash('sha256').update(Buffer.from(otherImage, 'base64')).digest('hex');
    await writer.appendMedia({
      sha256,
      refused: {
        route: 'anthropic',
        code: 'E_MEDIA_REFUSED',
        action: 'placeholder',
        reason: 'Could not process image',
      },
    });
    await writer.appendMedia({
      sha256,
      reference: { provider: 'openai', id: 'file-abc', mimeType: 'image/jpeg' },
    });
    await writer.close();
    const lines = (await readFile(path, 'utf8')).split('\n');
    expect(lines.slice(2, 4)).toStrictEqual([
      `{"type":"media","at":"2026-01-02T03:04:05.000Z","sha256":"${sha256}","refused":{"route":"anthropic","code":"E_MEDIA_REFUSED","action":"placeholder","reason":"Could not process image"}}`,
      `{"type":"media","at":"2026-01-02T03:04:05.000Z","sha256":"${sha256}","reference":{"provider":"openai","id":"file-abc","mimeType":"image/jpeg"}}`,
    ]);
    const resumed = await SessionWriter.open(path);
    expect(resumed.resumed?.media.map(({ line, afterEntries }) => [line, afterEntries])).toStrictEqual([
      [3, 1],
      [4, 1],
    ]);
    await resumed.append(screenshotResult(2, otherImage));
    await resumed.close();
    expect((await loadSession(path)).messages).toHaveLength(2);
  });

  it('keeps every line whole when many appends race, in call order', async () => {
    const path = await tempLog();
    const writer = await SessionWriter.open(path);
    const messages = Array.from({ length: 40 }, (_, i) => screenshotResult(i, i % 2 ? screenshot : otherImage));
    await Promise.all(messages.map((message) => writer.append(message)));
    await writer.close();
    const loaded = await loadSession(path);
    expect(loaded.tornTail).toBeUndefined();
    expect(loaded.messages).toStrictEqual(messages);
  });

  it('stores 50 identical screenshots once in content-addressed mode', async () => {
    const inlinePath = await tempLog();
    const addressedPath = await tempLog();
    const messages = Array.from({ length: 50 }, (_, i) => screenshotResult(i, screenshot));
    for (const [path, contentAddressed] of [
      [inlinePath, false],
      [addressedPath, true],
    ] as const) {
      const writer = await SessionWriter.open(path, { contentAddressed });
      await Promise.all(messages.map((message) => writer.append(message)));
      await writer.close();
    }
    const imageBytes = Buffer.from(screenshot, 'base64').length;
    const inlineSize = (await stat(inlinePath)).size;
    const addressedSize = (await stat(addressedPath)).size;
    expect(inlineSize).toBeGreaterThan(50 * imageBytes);
    // One copy of the base64 plus 50 small lines of references.
    expect(addressedSize).toBeLessThan(screenshot.length + 50 * 400);
    const text = await readFile(addressedPath, 'utf8');
    expect(text.split(screenshot).length - 1).toBe(1);
    expect((await loadSession(addressedPath)).messages).toStrictEqual(messages);
    expect((await loadSession(inlinePath)).messages).toStrictEqual(messages);
  });

  it('refers to media stored before a resume in content-addressed mode', async () => {
    const path = await tempLog();
    const first = await SessionWriter.open(path, { contentAddressed: true });
    await first.append(screenshotResult(1, screenshot));
    await first.close();
    const second = await SessionWriter.open(path, { contentAddressed: true });
    expect(second.resumed?.messages).toHaveLength(1);
    await second.append(screenshotResult(2, screenshot));
    await second.close();
    const text = await readFile(path, 'utf8');
    expect(text.split(screenshot).length - 1).toBe(1);
    expect((await loadSession(path)).messages).toStrictEqual([
      screenshotResult(1, screenshot),
      screenshotResult(2, screenshot),
    ]);
  });

  it('cuts a torn tail before resuming, so the next line does not glue onto it', async () => {
    const path = await tempLog();
    const writer = await SessionWriter.open(path);
    await writer.append({ role: 'user', parts: [{ type: 'text', text: 'one' }] });
    await writer.close();
    await appendFile(path, '{"type":"message","at":"2026-01-0');
    expect((await loadSession(path)).tornTail).toEqual({ line: 3, bytes: 33 });
    const resumed = await SessionWriter.open(path);
    expect(resumed.resumed?.tornTail?.line).toBe(3);
    await resumed.append({ role: 'user', parts: [{ type: 'text', text: 'two' }] });
    await resumed.close();
    const loaded = await loadSession(path);
    expect(loaded.tornTail).toBeUndefined();
    expect(
      loaded.messages.map((m) => (m.role === 'user' && m.parts[0]?.type === 'text' ? m.parts[0].text : '')),
    ).toEqual(['one', 'two']);
  });

  it('starts afresh when a crash left only part of the header', async () => {
    const path = await tempLog();
    await writeFile(path, '{"type":"head');
    const writer = await SessionWriter.open(path, { app: { name: 'x' } });
    await writer.append({ role: 'user', parts: [{ type: 'text', text: 'hi' }] });
    await writer.close();
    const loaded = await loadSession(path);
    expect(loaded.header.app).toEqual({ name: 'x' });
    expect(loaded.messages).toHaveLength(1);
  });

  it('refuses to resume a corrupt log and rejects appends after close', async () => {
    const path = await tempLog();
    const writer = await SessionWriter.open(path);
    await Promise.all([writer.close(), writer.close()]);
    await writer.close();
    await failsWith(writer.append({ role: 'user', parts: [] }), SessionError, 'E_SESSION_CLOSED');
    await appendFile(path, 'garbage\n');
    expect(await failsWith(SessionWriter.open(path), SessionError, 'E_SESSION_CORRUPT')).toMatchObject({ line: 2 });
  });
});
