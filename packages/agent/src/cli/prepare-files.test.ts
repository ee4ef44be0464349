import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failsWith } from '../../../../test/support/typed-errors.js';
import { FileError } from '../fs/file-error.js';
import { prepareConversation } from './prepare.js';

// prepare reads each FILE through view_file: the name fallback and the bounded read apply.
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'glimpse-prepare-'));
  await sharp({ create: { width: 300, height: 200, channels: 3, background: '#123456' } })
    .png()
    .toFile(join(dir, 'Screenshot 2026-11-29 at 10.41.07\u202FPM.png'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('prepareConversation', () => {
  it('finds a screenshot typed with a plain space and says which file it read', async () => {
    const messages = await prepareConversation(
      [join(dir, 'Screenshot 2026-11-29 at 10.41.07 PM.png')],
      'anthropic',
      'claude-sonnet-5-5',
    );
    const result = messages[2]!;
    if (result.role !== 'toolResult') throw new Error('expected a tool result');
    expect(result.isError).toBe(false);
    expect(result.parts.map((p) => p.type)).toEqual(['text', 'image']);
    expect(result.parts[0]!.type === 'text' && result.parts[0]!.text).toContain('\\u{202F}PM.png');
  });

  it('fails on a FILE over --max-file-bytes without reading it', async () => {
    await failsWith(
      prepareConversation([join(dir, 'Screenshot 2026-11-29 at 10.41.07\u202FPM.png')], 'gemini', undefined, {
        maxFileBytes: 100,
      }),
      FileError,
      'E_FILE_TOO_LARGE',
    );
  });

  it('keeps bad content as an error note in its result', async () => {
    await writeFile(join(dir, 'junk.png'), new Uint8Array(64).fill(7));
    const [, , result] = await prepareConversation([join(dir, 'junk.png')], 'openai-chat', 'gpt-5');
    expect(result).toMatchObject({
      role: 'toolResult',
      isError: true,
      parts: [{ type: 'text', text: expect.stringMatching(/^E_UNSUPPORTED: junk\.png/) }],
    });
  });
});
