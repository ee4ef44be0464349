import { describe, expect, it, vi } from 'vitest';
import { readApiFailure } from './api-failure.js';
import { missingCredentials } from './credentials.js';
import { failsWith } from '../../../../test/support/typed-errors.js';
import { ModelClientError } from './model-client-error.js';
import { withRetries } from './with-retries.js';

const httpError = (status: number, headers: Record<string, string> = {}) =>
  Object.assign(new Error(`HTTP ${status}`), { status, headers: new Headers(headers) });

describe('withRetries', () => {
  it('retries retryable failures and honours Retry-After', async () => {
    vi.useFakeTimers();
    try {
      let calls = 0;
      const result = withRetries('anthropic', 'ANTHROPIC_API_KEY', { retryDelayMs: 1 }, async () => {
        calls++;
        if (calls === 1) throw httpError(429, { 'retry-after': '0.2' });
        if (calls === 2) throw new TypeError('fetch failed');
        return 'ok';
      });
      // The 429 said to wait 200 ms: no second attempt before then, one right at it (on the fake clock).
      await vi.advanceTimersByTimeAsync(199);
      expect(calls).toBe(1);
      await vi.advanceTimersByTimeAsync(1);
      expect(calls).toBe(2);
      // The dropped connection has no Retry-After: the 1 ms base delay, doubled, with jitter (under 3 ms).
      await vi.advanceTimersByTimeAsync(3);
      expect([await result, calls]).toEqual(['ok', 3]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('never retries once text has reached the caller: the retry would show it twice', async () => {
    const seen: string[] = [];
    let calls = 0;
    const failing = withRetries(
      'openai-chat',
      'OPENAI_API_KEY',
      { retryDelayMs: 1, onText: (d) => seen.push(d) },
      async (emit) => {
        calls++;
        emit('Hel');
        throw httpError(503);
      },
    );
    expect(await failsWith(failing, ModelClientError, 'E_PROVIDER')).toMatchObject({
      details: { attempts: 1, status: 503 },
    });
    expect([seen, calls]).toEqual([['Hel'], 1]);
  });

  it('fails at once on a Retry-After longer than a minute, and on a 4xx', async () => {
    expect(
      await failsWith(
        withRetries('gemini', 'GEMINI_API_KEY', {}, async () =>
          Promise.reject(httpError(429, { 'retry-after': '3600' })),
        ),
        ModelClientError,
        'E_RATE_LIMITED',
      ),
    ).toMatchObject({ details: { attempts: 1 } });
    expect(
      await failsWith(
        withRetries('gemini', 'GEMINI_API_KEY', {}, async () => Promise.reject(httpError(404))),
        ModelClientError,
        'E_BAD_REQUEST',
      ),
    ).toMatchObject({ message: expect.stringContaining('Gemini answered 404') });
  });

  it('a 413 keeps E_BAD_REQUEST but says the request is too large, not to check the model id', async () => {
    for (const provider of ['anthropic', 'openai-chat', 'gemini', 'bedrock', 'ollama'] as const) {
      const error = await failsWith(
        withRetries(provider, 'KEY', {}, async () => Promise.reject(httpError(413))),
        ModelClientError,
        'E_BAD_REQUEST',
      );
      expect(error.details).toMatchObject({ status: 413, attempts: 1 });
      expect(error.message).toMatch(/answered 413: HTTP 413\. The request is too large for this endpoint/);
      expect(error.message).toContain('contextBudget');
      expect(error.message).not.toContain('model id');
    }
  });
});

describe('readApiFailure', () => {
  it('reads the status and Retry-After of every SDK error shape', () => {
    expect(readApiFailure(httpError(429, { 'retry-after': '2' }))).toMatchObject({ status: 429, retryAfter: '2' });
    expect(
      readApiFailure(
        Object.assign(new Error('Throttled'), {
          name: 'ThrottlingException',
          $metadata: { httpStatusCode: 429 },
          $response: { headers: { 'retry-after': '1' } },
        }),
      ),
    ).toMatchObject({ status: 429, retryAfter: '1' });
    expect(readApiFailure(Object.assign(new Error('model "x" not found'), { status_code: 404 }))).toMatchObject({
      status: 404,
    });
    expect(
      readApiFailure(Object.assign(new Error('This operation was aborted'), { name: 'AbortError' })),
    ).toMatchObject({ aborted: true });
    expect(readApiFailure('boom')).toEqual({
      message: 'boom',
      aborted: false,
      unreachable: false,
      noCredentials: false,
    });
  });

  it('tells a connection that failed from an answer the client cannot read', () => {
    const refused = Object.assign(new TypeError('fetch failed'), {
      cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }),
    });
    expect(readApiFailure(refused)).toMatchObject({ unreachable: true });
    expect(readApiFailure(Object.assign(new Error('Connection error.'), { name: 'APIConnectionError' }))).toMatchObject(
      { unreachable: true },
    );
    expect(readApiFailure(new TypeError('chunk.choices is not iterable'))).toMatchObject({ unreachable: false });
    expect(readApiFailure(new Error('missing output at index 0'))).toMatchObject({ unreachable: false });
  });
});

describe('withRetries, when the API did not answer with a status', () => {
  it('retries a refused connection, then says E_NETWORK', async () => {
    let calls = 0;
    const failing = withRetries('ollama', 'OLLAMA_HOST', { retryDelayMs: 1 }, async () => {
      calls++;
      throw Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } });
    });
    expect(await failsWith(failing, ModelClientError, 'E_NETWORK')).toMatchObject({ details: { attempts: 3 } });
    expect(calls).toBe(3);
  });

  it('gives an unreadable answer E_BAD_RESPONSE at once: a retry would read the same', async () => {
    let calls = 0;
    const failing = withRetries('openai-chat', 'OPENAI_API_KEY', { retryDelayMs: 1 }, async () => {
      calls++;
      throw new TypeError('chunk.choices is not iterable');
    });
    expect(await failsWith(failing, ModelClientError, 'E_BAD_RESPONSE')).toMatchObject({ details: { attempts: 1 } });
    expect(calls).toBe(1);
  });

  it('names the credentials when the AWS SDK finds none', async () => {
    const missing = Object.assign(new Error('Could not load credentials from any providers'), {
      name: 'CredentialsProviderError',
    });
    expect(
      await failsWith(
        withRetries('bedrock', 'AWS_REGION, AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY', {}, async () =>
          Promise.reject(missing),
        ),
        ModelClientError,
        'E_AUTH',
      ),
    ).toMatchObject({ details: { attempts: 1 }, message: expect.stringContaining('AWS_ACCESS_KEY_ID') });
  });
});

describe('missingCredentials', () => {
  it('names exactly the variables a live run lacks', () => {
    expect(missingCredentials('anthropic', {})).toEqual(['ANTHROPIC_API_KEY']);
    expect(missingCredentials('gemini', { GOOGLE_API_KEY: 'k' })).toEqual([]);
    expect(missingCredentials('gemini', {})).toEqual(['GEMINI_API_KEY or GOOGLE_API_KEY']);
    expect(missingCredentials('bedrock', { AWS_ACCESS_KEY_ID: 'a' })).toEqual(['AWS_REGION', 'AWS_SECRET_ACCESS_KEY']);
    expect(missingCredentials('bedrock', { AWS_PROFILE: 'dev', AWS_DEFAULT_REGION: 'eu-west-1' })).toEqual([]);
    expect(missingCredentials('ollama', {})).toEqual([]);
  });
});
