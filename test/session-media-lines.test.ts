// Issue 25 (sessions that heal): `media` lines through the CLI. `glimpse session` says what they hold, and
// `glimpse session import` carries them into a database store in their places, with their times.
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '../packages/agent/src/cli/main.js';
import { openSessionStore } from '../packages/agent/src/session/open-session-store.js';
import { parseSessionLocation } from '../packages/agent/src/session/session-location.js';
import { SessionWriter } from '../packages/agent/src/session/session-writer.js';
import type { StoredSession } from '../packages/agent/src/session/session-store.js';
import { captureOutput } from './support/capture-output.js';

let dir: string;
let logPath: string;
let sha256: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'glimpse-media-lines-'));
  logPath = join(dir, 'log.jsonl');
  const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#345678' } })
    .png()
    .toBuffer();
  sha256 = createHash('sha256').update(png).digest('hex');
  let second = 0;
  const writer = await SessionWriter.open(logPath, {
    contentAddressed: true,
    now: () => new Date(Date.UTC(2026, 11, 3, 15, 0, second++)),
  });
  await writer.append({
    role: 'user',
    parts: [{ type: 'image', mediaType: 'image/png', data: png.toString('base64') }],
  });
  await writer.appendMedia({
    sha256,
    refused: { route: 'anthropic', code: 'E_MEDIA_REFUSED', action: 'placeholder', reason: 'Could not process image' },
  });
  await writer.append({ role: 'assistant', text: 'I could not see it', toolCalls: [] });
  await writer.appendMedia({ sha256, reference: { provider: 'gemini', id: 'files/p1', mimeType: 'image/png' } });
  await writer.close();
});

afterEach(() => vi.restoreAllMocks());

async function cli(args: string[]): Promise<string> {
  const io = captureOutput();
  const code = await main(args);
  vi.restoreAllMocks();
  if (code !== 0) throw new Error(`glimpse ${args.join(' ')} exited ${code}: ${io.stderr.join('')}`);
  return io.stdout.join('');
}

async function read(location: string): Promise<StoredSession> {
  const { store, id } = await openSessionStore(parseSessionLocation(location));
  return store.readSession(id).finally(() => store.close());
}

describe('media lines in the CLI', () => {
  it('glimpse session says how many media were refused and how many have a file reference', async () => {
    const out = await cli(['session', logPath]);
    expect(out).toContain(
      'media lines: 2 about 1 media: 1 refused (1 sent as placeholders, 0 refitted), 1 with a provider file reference',
    );
  });

  it('glimpse session import carries media lines into PGlite in their places, with their times', async () => {
    await mkdir(join(dir, 'db'));
    const target = `pglite:${join(dir, 'db')}#imported`;
    expect(await cli(['session', 'import', logPath, '--to', target])).toMatch(/^imported 2 entries from /);
    const [from, to] = [await read(logPath), await read(target)];
    const lines = (session: StoredSession) => session.media?.map((line) => ({ ...line, line: undefined, at: line.at }));
    expect(lines(to)).toStrictEqual(lines(from));
    expect(to.media?.map((line) => [line.afterEntries, line.at])).toStrictEqual([
      [1, '2026-12-03T15:00:02.000Z'],
      [2, '2026-12-03T15:00:04.000Z'],
    ]);
    expect(to.messages).toStrictEqual(from.messages);
    const summary = (text: string) => text.split('\n').find((line) => line.startsWith('media lines:'));
    expect(summary(await cli(['session', target]))).toBe(summary(await cli(['session', logPath])));
  }, 60_000);
});
