// Sessions that heal on Gemini and Bedrock: a local server answering as each API does refuses one screenshot, and
// runAgent, through the official SDK (@google/genai's ApiError, @aws-sdk/client-bedrock-runtime's
// ValidationException), classifies the refusal, leaves that screenshot out and never sends it again.
// The error bodies are the APIs' own, as users reported them:
// - Gemini, no block named: 400 INVALID_ARGUMENT "Unable to process input image. Please retry or report in
//   https://developers.generativeai.google/guide/troubleshooting" (google-gemini/gemini-cli#5064);
// - Gemini, a field named: "Invalid value at '<field>' (…)" with a google.rpc.BadRequest's fieldViolations
//   (agno-agi/agno#2649), the part path in `contents[2].parts[1]` form (54xzh/FLIT#70);
// - Gemini over its inline bytes: 400 INVALID_ARGUMENT "Request payload size exceeds the limit: 20971520 bytes."
//   (MaKTaiL/gemini-srt-translator#63);
// - Bedrock's own validation: ValidationException "1 validation error detected: Value at
//   'messages.14.member.content.1.member.…' failed to satisfy constraint: …" (NousResearch/hermes-agent#90008);
// - Bedrock relaying the model: ValidationException "The model returned the following errors: messages.0.content.1
//   .image.source…" (NousResearch/hermes-agent#55429, boto/boto3#4415).
import { afterEach, describe, expect, it } from 'vitest';
import { runAgent } from '../packages/agent/src/index.js';
import { createModelClient } from '../packages/agent/src/entries/clients.js';
import type { ProviderName } from '../packages/agent/src/route/capabilities.js';
import { startApiServer, type ApiServer, type ErrorEntry } from './support/api-server.js';
import { screenshotTurns, storedScreenshots } from './support/screenshot-tool.js';

const TURNS = 6;
const BAD = 2;
const { shots, tool: screenshot } = await storedScreenshots({ count: TURNS, seed: 300 });
const script = () => screenshotTurns(0, TURNS);

/** The path of the value equal to `data` in a wire body (Gemini's inlineData.data, Bedrock's base64 bytes). */
function pathOf(node: unknown, data: string, path: (string | number)[] = []): (string | number)[] | undefined {
  if (node === data) return path;
  if (typeof node !== 'object' || node === null) return undefined;
  for (const [key, value] of Object.entries(node)) {
    const found = pathOf(value, data, [...path, Array.isArray(node) ? Number(key) : key]);
    if (found) return found;
  }
  return undefined;
}

const snake = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
/** Gemini's spelling of a field: `contents[3].parts[0].function_response.parts[0].inline_data.data`. */
const googleField = (path: (string | number)[]) =>
  path
    .map((segment) => (typeof segment === 'number' ? `[${segment}]` : `.${snake(segment)}`))
    .join('')
    .slice(1);
/** Bedrock's own validation spelling: `messages.3.member.content.0.member.toolResult.member.content.0…`. */
const awsField = (path: (string | number)[]) =>
  path.map((segment) => (typeof segment === 'number' ? `${segment}.member` : segment)).join('.');
/** The model's spelling, relayed by Bedrock: the Anthropic request's path, without Converse's toolResult wrapper. */
const modelField = (path: (string | number)[]) => path.filter((segment) => segment !== 'toolResult').join('.');

interface Case {
  name: string;
  provider: ProviderName;
  model: string;
  refuse: (path: (string | number)[]) => ErrorEntry;
  /** Whether the API names the block (the classifier's `path`) or not (the one medium added since). */
  named: boolean;
}

const CASES: Case[] = [
  {
    name: 'Gemini, no block named (Unable to process input image)',
    provider: 'gemini',
    model: 'gemini-3-pro-preview',
    named: false,
    refuse: () => ({
      status: 400,
      message:
        'Unable to process input image. Please retry or report in https://developers.generativeai.google/guide/troubleshooting',
    }),
  },
  {
    name: 'Gemini 2.5, the part named in fieldViolations',
    provider: 'gemini',
    model: 'gemini-2.5-flash',
    named: true,
    refuse: (path) => ({
      status: 400,
      message: `Invalid value at '${googleField(path)}' (TYPE_BYTES), Provided image is not valid`,
      details: [
        {
          '@type': 'type.googleapis.com/google.rpc.BadRequest',
          fieldViolations: [{ field: googleField(path), description: 'Provided image is not valid' }],
        },
      ],
    }),
  },
  {
    name: 'Bedrock, its own validation naming the block',
    provider: 'bedrock',
    model: 'us.anthropic.claude-sonnet-4-6-v1:0',
    named: true,
    refuse: (path) => ({
      status: 400,
      message: `1 validation error detected: Value at '${awsField(path.slice(0, -1))}' failed to satisfy constraint: Member must be a valid image`,
    }),
  },
  {
    name: 'Bedrock, relaying the model’s refusal of the block',
    provider: 'bedrock',
    model: 'us.anthropic.claude-sonnet-4-6-v1:0',
    named: true,
    refuse: (path) => ({
      status: 400,
      message: `The model returned the following errors: ${modelField(path.slice(0, -1))}: Could not process image`,
    }),
  },
];

let server: ApiServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('runAgent heals a refused image on Gemini and Bedrock, through their SDKs', () => {
  for (const test of CASES)
    it(test.name, async () => {
      server = await startApiServer(script(), (request) => {
        const path = pathOf(request.body, shots[BAD]!);
        return path === undefined ? undefined : test.refuse(path);
      });
      const run = await runAgent({
        model: createModelClient({
          provider: test.provider,
          model: test.model,
          apiKey: 'test-key',
          baseUrl: test.provider === 'bedrock' ? server.http2Url : server.url,
          region: 'us-east-1',
          credentials: { accessKeyId: 'AKIDTEST', secretAccessKey: 'test-secret' },
          maxRetries: 0,
          env: {},
        }),
        provider: test.provider,
        modelId: test.model,
        tools: [screenshot],
        prompt: 'Look six times.',
        maxSteps: TURNS + 1,
      });
      expect(run.stopped).toBe('done');
      expect(run.repairs).toHaveLength(1);
      const [repair] = run.repairs;
      expect(repair).toMatchObject({
        action: 'left-out',
        value: shots[BAD],
        refusal: { code: 'E_MEDIA_REFUSED', status: 400 },
      });
      expect(repair!.refusal.path === undefined).toBe(!test.named);
      // One refused request; the same turn then goes through, and no later request carries the screenshot.
      const carrying = server.requests.filter((request) => pathOf(request.body, shots[BAD]!) !== undefined);
      expect(carrying).toHaveLength(1);
      expect(server.requests).toHaveLength(TURNS + 2);
      const after = server.requests.slice(server.requests.indexOf(carrying[0]!) + 1);
      expect(after.length).toBeGreaterThanOrEqual(TURNS - BAD);
      for (const request of after) expect(JSON.stringify(request.body)).toContain('the provider refused it once');
      // Every other screenshot still goes as an image.
      for (const n of [0, 1, 3, 4, 5]) expect(pathOf(server.requests.at(-1)!.body, shots[n]!)).toBeDefined();
    }, 120_000);

  it('Gemini over its inline bytes (a 400, not a 413): the request’s bytes are tightened and every turn goes through', async () => {
    server = await startApiServer(script(), (request) =>
      request.bytes > 400_000
        ? { status: 400, message: 'Request payload size exceeds the limit: 20971520 bytes.' }
        : undefined,
    );
    const run = await runAgent({
      model: createModelClient({
        provider: 'gemini',
        model: 'gemini-2.5-flash',
        apiKey: 'test-key',
        baseUrl: server.url,
        maxRetries: 0,
        env: {},
      }),
      provider: 'gemini',
      modelId: 'gemini-2.5-flash',
      tools: [screenshot],
      prompt: 'Look six times.',
      maxSteps: TURNS + 1,
    });
    expect(run.stopped).toBe('done');
    expect(run.repairs.length).toBeGreaterThanOrEqual(1);
    expect(run.repairs.map((repair) => [repair.action, repair.refusal.code, repair.refusal.status])).toStrictEqual(
      run.repairs.map(() => ['bytes-tightened', 'E_REQUEST_TOO_LARGE', 400]),
    );
    expect(server.requests.filter((request) => request.bytes <= 400_000)).toHaveLength(TURNS + 1);
  }, 120_000);

  it('Gemini, no block named, on a resumed run’s first request: the image the new turn adds is the one left out', async () => {
    const gemini = (url: string) =>
      createModelClient({
        provider: 'gemini',
        model: 'gemini-2.5-flash',
        apiKey: 'k',
        baseUrl: url,
        maxRetries: 0,
        env: {},
      });
    server = await startApiServer([
      { toolCalls: [{ id: 'call_0', name: 'screenshot', arguments: { n: 0 } }] },
      { toolCalls: [{ id: 'call_1', name: 'screenshot', arguments: { n: 1 } }] },
      { text: 'Two seen.' },
    ]);
    const first = await runAgent({
      model: gemini(server.url),
      provider: 'gemini',
      modelId: 'gemini-2.5-flash',
      tools: [screenshot],
      prompt: 'Look twice.',
    });
    await server.close();
    server = await startApiServer([{ text: 'Fine.' }], (request) =>
      pathOf(request.body, shots[BAD]!) === undefined
        ? undefined
        : { status: 400, message: 'Unable to process input image. Please retry or report in …' },
    );
    const resumed = await runAgent({
      model: gemini(server.url),
      provider: 'gemini',
      modelId: 'gemini-2.5-flash',
      tools: [screenshot],
      history: first.messages,
      prompt: [
        { type: 'text', text: 'And this one?' },
        { type: 'image', mediaType: 'image/png', data: shots[BAD]! },
      ],
    });
    expect(resumed.repairs).toMatchObject([{ action: 'left-out', value: shots[BAD] }]);
    expect(server.requests).toHaveLength(2);
    for (const n of [0, 1]) expect(pathOf(server.requests[1]!.body, shots[n]!)).toBeDefined();
  }, 120_000);
});
