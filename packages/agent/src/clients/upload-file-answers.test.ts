// An upload answered 200 without a usable reference (`{}`, `{"id":""}`, a proxy's HTML page the SDK hands back as
// a string, a Gemini expiry that is no time) fails the upload: the uploaders check the answer after the retries,
// so the resolver leaves the medium inline with a media-reference-failed warning instead of sending `file_id`-less
// sources or writing a media line the log refuses.
import type Anthropic from '@anthropic-ai/sdk';
import type { GoogleGenAI } from '@google/genai';
import type OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import type { MediaUpload } from '../references/media-upload.js';
import { uploadAnthropicFile } from './upload-anthropic-file.js';
import { uploadGeminiFile } from './upload-gemini-file.js';
import { uploadOpenAIFile } from './upload-openai-file.js';

const media: MediaUpload = {
  bytes: new Uint8Array([1, 2, 3]),
  mediaType: 'image/png',
  sha256: 'a'.repeat(64),
  filename: 'a.png',
};
const options = { model: 'm', maxRetries: 0, env: {} };

const anthropic = (answer: unknown) => async () =>
  ({ beta: { files: { upload: async () => answer } } }) as unknown as Anthropic;
const openai = (answer: unknown) => async () => ({ files: { create: async () => answer } }) as unknown as OpenAI;
const gemini = (answer: unknown) => async () => ({ files: { upload: async () => answer } }) as unknown as GoogleGenAI;

describe('upload answers without a usable reference', () => {
  it.each([
    ['{}', {}, 'id missing'],
    ['an empty id', { id: '', mime_type: 'image/png' }, 'id ""'],
    ['an HTML page', '<html>proxy</html>', 'id missing'],
  ])('Anthropic %s fails the upload', async (_, answer, what) => {
    await expect(uploadAnthropicFile(anthropic(answer), options)(media)).rejects.toThrow(
      `the anthropic file store answered without a usable reference (${what})`,
    );
  });

  it('Anthropic with an id is a reference', async () => {
    expect(await uploadAnthropicFile(anthropic({ id: 'file_1', mime_type: 'image/png' }), options)(media)).toEqual({
      provider: 'anthropic',
      id: 'file_1',
      mimeType: 'image/png',
    });
  });

  it.each([
    ['{}', {}, 'id missing'],
    ['an empty id', { id: '' }, 'id ""'],
  ])('OpenAI %s fails the upload', async (_, answer, what) => {
    await expect(uploadOpenAIFile('openai-responses', openai(answer), options)(media)).rejects.toThrow(
      `the openai file store answered without a usable reference (${what})`,
    );
  });

  it('Gemini: an empty uri, or an expirationTime that is no time, fails the upload', async () => {
    const active = { name: 'files/a', uri: 'http://gem/files/a', mimeType: 'image/png', state: 'ACTIVE' };
    await expect(uploadGeminiFile(gemini({ ...active, uri: '' }), options)(media)).rejects.toThrow(
      'the File API answered without a name or uri',
    );
    await expect(
      uploadGeminiFile(gemini({ ...active, expirationTime: 'tomorrow-ish' }), options)(media),
    ).rejects.toThrow(
      'the gemini file store answered without a usable reference (expiry "tomorrow-ish" is not a time)',
    );
    const expirationTime = '2026-12-05T16:00:00.000Z';
    expect(await uploadGeminiFile(gemini({ ...active, expirationTime }), options)(media)).toEqual({
      provider: 'gemini',
      id: 'files/a',
      uri: 'http://gem/files/a',
      mimeType: 'image/png',
      expiresAt: expirationTime,
    });
  });
});
