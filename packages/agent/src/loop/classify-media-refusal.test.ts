import { describe, expect, it } from 'vitest';
import { ModelClientError } from '../clients/model-client-error.js';
import { blockPath, classifyMediaRefusal } from './classify-media-refusal.js';

const failed = (
  status: number,
  cause: unknown,
  provider: 'anthropic' | 'openai-chat' | 'gemini' | 'bedrock' = 'anthropic',
) => new ModelClientError('E_BAD_REQUEST', `the API refused the request (${status})`, { provider, status, cause });
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

  it('reads a complaint about media that names no block only under an invalid-request type, without a path', () => {
    // Anthropic's bare "Could not process image" (claude-code#1747): the repair finds the one medium added since.
    expect(classifyMediaRefusal(failed(400, anthropic('invalid_request_error', 'Could not process image')))).toEqual({
      code: 'E_MEDIA_REFUSED',
      status: 400,
      message: 'Could not process image',
    });
    // The same words under no type, or another one, are not enough.
    expect(classifyMediaRefusal(failed(400, { message: 'could not process image' }))).toBeUndefined();
    expect(classifyMediaRefusal(failed(400, anthropic('api_error', 'could not process image')))).toBeUndefined();
  });

  it('reads Gemini’s ApiError (its message is the JSON body): status, field violations, the 400 over inline bytes', () => {
    // What @google/genai's throwErrorIfNotOK throws: `new ApiError({ message: JSON.stringify(body), status })`.
    const gemini = (error: Record<string, unknown>) =>
      failed(
        400,
        { name: 'ApiError', status: 400, message: JSON.stringify({ error: { code: 400, ...error } }) },
        'gemini',
      );
    expect(
      classifyMediaRefusal(
        gemini({ message: 'Unable to process input image. Please retry or report in …', status: 'INVALID_ARGUMENT' }),
      ),
    ).toMatchObject({ code: 'E_MEDIA_REFUSED', message: 'Unable to process input image. Please retry or report in …' });
    const named = classifyMediaRefusal(
      gemini({
        message: 'Provided image is not valid',
        status: 'INVALID_ARGUMENT',
        details: [
          {
            '@type': 'type.googleapis.com/google.rpc.BadRequest',
            fieldViolations: [{ field: 'contents[3].parts[1].inline_data.data' }],
          },
        ],
      }),
    );
    expect(named).toMatchObject({ code: 'E_MEDIA_REFUSED', path: ['contents', 3, 'parts', 1] });
    expect(
      classifyMediaRefusal(
        gemini({ message: 'Request payload size exceeds the limit: 20971520 bytes.', status: 'INVALID_ARGUMENT' }),
      ),
    ).toMatchObject({ code: 'E_REQUEST_TOO_LARGE', status: 400 });
    // The same words under another status are not a media refusal; a schema error about a part is not either.
    expect(
      classifyMediaRefusal(gemini({ message: 'Unable to process input image', status: 'PERMISSION_DENIED' })),
    ).toBeUndefined();
    expect(
      classifyMediaRefusal(
        gemini({
          message:
            "* GenerateContentRequest.contents[2].parts[1].data: required oneof field 'data' must have one initialized field",
          status: 'INVALID_ARGUMENT',
        }),
      ),
    ).toBeUndefined();
  });

  it('reads Bedrock’s ValidationException: its own member paths and the model’s relayed ones', () => {
    const bedrock = (message: string) =>
      failed(400, Object.assign(new Error(message), { name: 'ValidationException', $fault: 'client' }));
    expect(
      classifyMediaRefusal(
        bedrock(
          "1 validation error detected: Value at 'messages.3.member.content.0.member.toolResult.member.content.1.member.image.source.bytes' failed to satisfy constraint: Member must be a valid image",
        ),
      ),
    ).toMatchObject({ code: 'E_MEDIA_REFUSED', path: ['messages', 3, 'content', 0, 'toolResult', 'content', 1] });
    expect(
      classifyMediaRefusal(
        bedrock(
          'The model returned the following errors: messages.0.content.1.image.source.base64: image exceeds 5 MB maximum',
        ),
      ),
    ).toMatchObject({ code: 'E_MEDIA_REFUSED', path: ['messages', 0, 'content', 1] });
    // A tool name that breaks Bedrock's pattern names a block, but not one about media.
    expect(
      classifyMediaRefusal(
        bedrock(
          "1 validation error detected: Value at 'messages.14.member.content.1.member.toolUse.name' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_-]+",
        ),
      ),
    ).toBeUndefined();
  });

  it('leaves every other failure alone: a schema error, media words without a block, other codes', () => {
    expect(
      classifyMediaRefusal(failed(400, anthropic('invalid_request_error', 'tools.0.input_schema: must be an object'))),
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
    // Gemini's own spelling (google.rpc field paths), and a function response's parts.
    expect(blockPath("Invalid value at 'contents[1].parts[2].inline_data.data'")).toEqual(['contents', 1, 'parts', 2]);
    expect(blockPath('contents[4].parts[0].function_response.parts[1].inline_data')).toEqual([
      'contents',
      4,
      'parts',
      0,
      'function_response',
      'parts',
      1,
    ]);
    expect(blockPath('contents.1.parts.2.inline_data')).toEqual(['contents', 1, 'parts', 2]);
    // A whole message is not a block.
    expect(blockPath('messages.2: Did not find 1 `tool_result` block')).toBeUndefined();
    expect(blockPath('no path here')).toBeUndefined();
  });
});
