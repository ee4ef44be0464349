// The live model clients, each through its official SDK, against a local server on 127.0.0.1 that speaks the
// API: runAgent completes a tool-use conversation, each request is exactly `serialize`'s body plus the model
// (and what the API requires), text streams, and failures retry or end in a typed error.
import { readFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { createFileTools, runAgent, type AgentStep, type ProviderName } from '../packages/agent/src/index.js';
import { MemoryFileSystem } from '../packages/agent/src/entries/fs.js';
import { createModelClient, isModelClientError, ModelClientError } from '../packages/agent/src/entries/clients.js';
import { requestJson } from '../packages/agent/src/providers/request-json.js';
import { failsWith } from './support/typed-errors.js';
import { startApiServer, type ApiServer, type ScriptEntry } from './support/api-server.js';
import { decodeStrictly, findWireMedia } from './support/wire-media.js';

const photo = new Uint8Array(await readFile(new URL('../samples/photo-exif6.jpg', import.meta.url)));
const fileSystem = new MemoryFileSystem({
  files: { '/work/photo.jpg': photo, '/work/notes.txt': new TextEncoder().encode('Hills at noon.\n') },
});

const MODELS: Record<ProviderName, string> = {
  anthropic: 'claude-sonnet-4-6',
  'openai-chat': 'gpt-4.1',
  'openai-responses': 'gpt-5.1',
  gemini: 'gemini-3-pro-preview',
  bedrock: 'us.anthropic.claude-sonnet-4-6-v1:0',
  ollama: 'qwen2.5vl:7b',
};
const PROVIDERS = Object.keys(MODELS) as ProviderName[];

/** Where each SDK expects the server: OpenAI's base URL carries the version; the AWS SDK speaks HTTP/2 to Bedrock. */
const baseUrl = (provider: ProviderName, server: ApiServer) =>
  provider === 'openai-chat' || provider === 'openai-responses'
    ? `${server.url}/v1`
    : provider === 'bedrock'
      ? server.http2Url
      : server.url;

function client(
  provider: ProviderName,
  server: ApiServer,
  extra: { onText?: (delta: string) => void; maxRetries?: number } = {},
) {
  return createModelClient({
    provider,
    model: MODELS[provider],
    apiKey: 'test-key',
    baseUrl: baseUrl(provider, server),
    region: 'us-east-1',
    credentials: { accessKeyId: 'AKIDTEST', secretAccessKey: 'test-secret' },
    retryDelayMs: 1,
    env: {},
    ...extra,
  });
}

/** What each SDK puts on the wire around the serialized body. */
function expectedWire(provider: ProviderName, body: unknown): unknown {
  const plain = JSON.parse(requestJson(body));
  const model = MODELS[provider];
  switch (provider) {
    case 'anthropic':
      return { model, max_tokens: 8192, ...plain, stream: true };
    case 'openai-chat':
    case 'openai-responses':
    case 'ollama':
      return { model, ...plain, stream: true };
    case 'gemini':
      return { ...plain, generationConfig: {} };
    case 'bedrock':
      return plain;
  }
}

let server: ApiServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const twoCalls: ScriptEntry = {
  toolCalls: [
    { id: 'call_1', name: 'view_file', arguments: { path: 'photo.jpg' } },
    { id: 'call_2', name: 'read', arguments: { path: 'notes.txt' } },
  ],
};

describe.each(PROVIDERS)('the %s client', (provider) => {
  it('runs a tool-use conversation: each request is the serialized body, the answer streams', async () => {
    server = await startApiServer([twoCalls, { text: 'A green hill under a sun.' }]);
    const deltas: string[] = [];
    const steps: AgentStep[] = [];
    const files = createFileTools({ fileSystem, root: '/work', route: { provider, model: MODELS[provider] } });
    const run = await runAgent({
      model: client(provider, server, { onText: (d) => deltas.push(d) }),
      provider,
      modelId: MODELS[provider],
      system: 'You look at files.',
      tools: [files.viewFile, files.read],
      prompt: 'What is in photo.jpg and notes.txt?',
      onStep: (step) => steps.push(step),
    });
    expect(run).toMatchObject({ stopped: 'done', steps: 2 });
    expect(run.messages.at(-1)).toEqual({ role: 'assistant', text: 'A green hill under a sun.', toolCalls: [] });
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe('A green hill under a sun.');
    // Both calls ran and were answered, in call order.
    const results = run.messages.filter((m) => m.role === 'toolResult');
    expect(results.map((r) => (r.role === 'toolResult' ? [r.toolName, r.isError] : []))).toEqual([
      ['view_file', false],
      ['read', false],
    ]);
    // What went out is exactly serialize's body (plus model, and max_tokens and stream where the API wants them).
    expect(server.requests).toHaveLength(2);
    steps.forEach((step, i) =>
      expect(server!.requests[i]!.body).toEqual(expectedWire(provider, step.request.serialized.body)),
    );
    // The photo in the second request is the fitted one.
    const [image] = findWireMedia(server.requests[1]!.body);
    const size = await decodeStrictly(image!.bytes);
    expect(size.height).toBeGreaterThan(size.width);
    expect(Math.max(size.width, size.height)).toBeLessThanOrEqual(3072);
  });

  it('retries a 429 (Retry-After) and a 503, then succeeds', async () => {
    server = await startApiServer([{ status: 429, retryAfter: '0' }, { status: 503 }, { text: 'ok' }]);
    const run = await runAgent({
      model: client(provider, server),
      provider,
      modelId: MODELS[provider],
      tools: [],
      prompt: 'hi',
    });
    expect(run.messages.at(-1)).toMatchObject({ role: 'assistant', text: 'ok' });
    expect(server.requests).toHaveLength(3);
  });

  it('retries a dropped connection', async () => {
    server = await startApiServer([{ drop: true }, { text: 'ok' }]);
    const run = await runAgent({
      model: client(provider, server),
      provider,
      modelId: MODELS[provider],
      tools: [],
      prompt: 'hi',
    });
    expect(run.messages.at(-1)).toMatchObject({ text: 'ok' });
  });

  it('a 401 is E_AUTH at once, naming where the key comes from', async () => {
    server = await startApiServer([{ status: 401, message: 'invalid key' }]);
    const error = await failsWith(
      runAgent({ model: client(provider, server), provider, tools: [], prompt: 'hi' }),
      ModelClientError,
      'E_AUTH',
    );
    expect(isModelClientError(error)).toBe(true);
    expect(error).toMatchObject({ details: { status: 401, attempts: 1, provider } });
    expect(error.message).toMatch(
      provider === 'ollama' ? /OLLAMA_HOST/ : provider === 'bedrock' ? /AWS_ACCESS_KEY_ID/ : /_API_KEY/,
    );
    expect(server.requests).toHaveLength(1);
  });

  it('a 400 is E_BAD_REQUEST without a retry; 500s give up after maxRetries', async () => {
    server = await startApiServer([
      { status: 400, message: 'bad model' },
      { status: 500 },
      { status: 500 },
      { status: 500 },
    ]);
    expect(
      await failsWith(
        runAgent({ model: client(provider, server), provider, tools: [], prompt: 'hi' }),
        ModelClientError,
        'E_BAD_REQUEST',
      ),
    ).toMatchObject({ details: { status: 400 } });
    expect(
      await failsWith(
        runAgent({ model: client(provider, server, { maxRetries: 2 }), provider, tools: [], prompt: 'hi' }),
        ModelClientError,
        'E_PROVIDER',
      ),
    ).toMatchObject({ details: { status: 500, attempts: 3 } });
    expect(server.requests).toHaveLength(4);
  });
});

describe('the gemini client', () => {
  it("sends the model's thought signature back exactly as it came", async () => {
    const signed: ScriptEntry = {
      toolCalls: [
        { id: 'call_1', name: 'read', arguments: { path: 'notes.txt' }, signature: 'c2lnbmVkLWJ5LWdlbWluaQ==' },
      ],
    };
    server = await startApiServer([signed, { text: 'Hills.' }]);
    const files = createFileTools({ fileSystem, root: '/work', route: { provider: 'gemini', model: MODELS.gemini } });
    await runAgent({
      model: client('gemini', server),
      provider: 'gemini',
      modelId: MODELS.gemini,
      tools: [files.read],
      prompt: 'Read notes.txt',
    });
    expect(JSON.stringify(server.requests[1]!.body)).toContain('"thoughtSignature":"c2lnbmVkLWJ5LWdlbWluaQ=="');
    expect(JSON.stringify(server.requests[1]!.body)).not.toContain('skip_thought_signature_validator');
    // v1beta, the version Google documents Gemini 3's per-part media_resolution for (the SDK's default is v1).
    expect(server.requests[1]!.path).toMatch(/^\/v1beta\/models\/gemini-3-pro-preview:streamGenerateContent/);
  });
});

describe('live clients, whatever the route', () => {
  it('refuse a request serialized for another route', async () => {
    server = await startApiServer([]);
    await expect(
      runAgent({ model: client('anthropic', server), provider: 'openai-chat', tools: [], prompt: 'hi' }),
    ).rejects.toThrow("this client speaks anthropic: run the agent with provider: 'anthropic'");
    expect(server.requests).toHaveLength(0);
  });

  it('stop waiting for a retry when the caller aborts', async () => {
    server = await startApiServer([{ status: 429, retryAfter: '30' }]);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    await failsWith(
      runAgent({
        model: client('anthropic', server),
        provider: 'anthropic',
        tools: [],
        prompt: 'hi',
        signal: controller.signal,
      }),
      ModelClientError,
      'E_ABORTED',
    );
  });

  it('say which variable is missing when there is no key', async () => {
    const anthropic = createModelClient({ provider: 'anthropic', model: 'claude-sonnet-4-6', env: {} });
    expect(
      await failsWith(
        runAgent({ model: anthropic, provider: 'anthropic', tools: [], prompt: 'hi' }),
        ModelClientError,
        'E_AUTH',
      ),
    ).toMatchObject({ message: expect.stringContaining('ANTHROPIC_API_KEY') });
  });
});
