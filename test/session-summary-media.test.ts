// `glimpse session FILE` counts media both ways (stranger review of issue 28): the bytes in all (what the log
// sends again, request after request) and the distinct media by content hash (what a content-addressed store
// holds once). Sizes are the fixtures' own byte counts.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '../packages/agent/src/cli/main.js';
import { SessionWriter } from '../packages/agent/src/session/session-writer.js';
import { formatBytes } from '../packages/agent/src/tools/format-bytes.js';
import type { Message } from '../packages/agent/src/types.js';
import { textPdf } from './fixtures/pdf-documents.js';
import { captureOutput } from './support/capture-output.js';

let dir: string;
let sizes: { red: number; blue: number; pdf: number };

const png = (background: string) =>
  sharp({ create: { width: 300, height: 200, channels: 3, background } })
    .png()
    .toBuffer();

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'glimpse-summary-media-'));
  const [red, blue, pdf] = [await png('#c00'), await png('#00c'), Buffer.from(await textPdf({ pages: 1, lines: 2 }))];
  sizes = { red: red.byteLength, blue: blue.byteLength, pdf: pdf.byteLength };
  const result = (id: string, parts: Extract<Message, { role: 'toolResult' }>['parts']): Message => ({
    role: 'toolResult',
    toolCallId: id,
    toolName: 'look',
    isError: false,
    parts,
  });
  const image = (bytes: Buffer) => ({
    type: 'image' as const,
    mediaType: 'image/png' as const,
    data: bytes.toString('base64'),
  });
  const document = { type: 'document' as const, mediaType: 'application/pdf' as const, data: pdf.toString('base64') };
  for (const contentAddressed of [false, true]) {
    const writer = await SessionWriter.open(join(dir, `log-${contentAddressed}.jsonl`), {
      contentAddressed,
      app: { name: 'summary-media-test' },
    });
    await writer.append({ role: 'user', parts: [{ type: 'text', text: 'look' }] });
    await writer.append({
      role: 'assistant',
      text: '',
      toolCalls: ['a', 'b', 'c'].map((id) => ({ id, name: 'look', arguments: {} })),
    });
    // The red screenshot three times, the blue once; the PDF twice.
    await writer.append(result('a', [image(red), document]));
    await writer.append(result('b', [image(red), image(blue)]));
    await writer.append(result('c', [image(red), document]));
    await writer.close();
  }
});

afterAll(() => rm(dir, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

describe('glimpse session: media bytes in all and unique', () => {
  it('counts each medium in all and once by content, in plain and content-addressed logs alike', async () => {
    const expected =
      `media: 4 images (2 unique), ${formatBytes(3 * sizes.red + sizes.blue)} in all, ${formatBytes(sizes.red + sizes.blue)} unique; ` +
      `2 documents (1 unique), ${formatBytes(2 * sizes.pdf)} in all, ${formatBytes(sizes.pdf)} unique; log file `;
    for (const contentAddressed of [false, true]) {
      const io = captureOutput();
      expect(await main(['session', join(dir, `log-${contentAddressed}.jsonl`)])).toBe(0);
      vi.restoreAllMocks();
      const line = io.stdout
        .join('')
        .split('\n')
        .find((l) => l.startsWith('media: '));
      expect(line?.startsWith(expected), `${line}`).toBe(true);
    }
  });
});
