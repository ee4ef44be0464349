import { describe, expect, it } from 'vitest';
import { ModelClientError } from '../clients/model-client-error.js';
import { blockPath, classifyMediaRefusal } from './classify-media-refusal.js';

const failed = (status: number, cause: unknown, provider: 'anthropic' | 'openai-chat' | 'gemini' = 'anthropic') =>
  new ModelClientError('E_BAD_REQUEST', `the API refused the request (${status})`, { provider, status, cause });
// The SDK errors' shapes: Anthropic keeps the body as `error`, OpenAI its `error` object's fields on the error.
const anthropic = (type: string, message: string) => ({
  status: 0,
  error: { type: 'error', error: { type, message } },
});

describe('classifyMediaRefusal', () => {
  it('reads a 413 or Anthropic’s request_too_large as the whole request over its bytes', () => {
    expect(classifyMediaRefusal(failed(413, anthropic('request_too_large', 'Request exceeds…')))).toMatchObject({
      code: 'E_REQUEST_TOO_LARGE',
      status: 413,
    });
    expect(classifyMediaRefusal(failed(413, undefined))?.code).toBe('E_REQUEST_TOO_LARGE');
  });

  it('reads a 400 naming an image block as that medium refused, with the block’s path', () => {
    const refusal = classifyMediaRefusal(
      failed(
        400,
        anthropic(
          'invalid_request_error',
          'messages.4.content.0.content.1.source.base64.data: Could not process image',
        ),
      ),
    );
    expect(refusal).toMatchObject({ code: 'E_MEDIA_REFUSED', path: ['messages', 4, 'content', 0, 'content', 1] });
    // OpenAI names the block in `param`, with brackets.
    const openai = classifyMediaRefusal(
      failed(
        400,
        {
          status: 400,
          type: 'invalid_request_error',
          param: 'messages.[3].content.[1].image_url',
          message: 'Invalid image data.',
        },
        'openai-chat',
      ),
    );
    expect(openai).toMatchObject({ code: 'E_MEDIA_REFUSED', path: ['messages', 3, 'content', 1] });
  });

  it('reads "too many images" only from a 400 of the invalid-request kind', () => {
    expect(
      classifyMediaRefusal(
        failed(400, anthropic('invalid_request_error', 'messages: Too many images: 101 > 100 maximum.')),
      )?.code,
    ).toBe('E_TOO_MANY_IMAGES');
    // The same words under another error type (a rate limit that quotes them) are not a media refusal.
    expect(classifyMediaRefusal(failed(400, anthropic('permission_error', 'too many images today')))).toBeUndefined();
  });

  it('leaves every other failure alone: a schema error, media words without a block, other codes', () => {
    expect(
      classifyMediaRefusal(failed(400, anthropic('invalid_request_error', 'tools.0.input_schema: must be an object'))),
    ).toBeUndefined();
    expect(
      classifyMediaRefusal(failed(400, anthropic('invalid_request_error', 'could not process image'))),
    ).toBeUndefined();
    expect(
      classifyMediaRefusal(new ModelClientError('E_RATE_LIMITED', 'slow down', { provider: 'anthropic', status: 429 })),
    ).toBeUndefined();
    expect(classifyMediaRefusal(new Error('messages.1.content.0: image'))).toBeUndefined();
  });
});

describe('blockPath', () => {
  it('reads Anthropic, OpenAI and Gemini block paths', () => {
    expect(blockPath('messages.2.content.0: bad')).toEqual(['messages', 2, 'content', 0]);
    expect(blockPath('contents[1].parts[2]')).toBeUndefined();
    expect(blockPath('contents.1.parts.2.inline_data')).toEqual(['contents', 1, 'parts', 2]);
    expect(blockPath('no path here')).toBeUndefined();
  });
});
