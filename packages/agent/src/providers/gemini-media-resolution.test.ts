// Gemini 3's per-part media_resolution, end to end: the working size glimpse fits to, the level the serializer
// sets for each image, what the real @google/genai SDK puts on the wire (to a local server), and the tokens
// the estimates count, all agree.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GoogleGenAI } from '@google/genai';
import { process as fit } from '@glimpse/media';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as make from '../../../../test/fixtures/make.js';
import { estimateMessageTokens } from '../compaction/estimate-tokens.js';
import { capabilitiesFor } from '../route/capabilities.js';
import { resolveRoute, type ModelRoute } from '../route/resolve-route.js';
import type { ImagePart, Message } from '../types.js';
import { runAgent } from '../loop/run-agent.js';
import { serializeGemini } from './gemini.js';
import { toGeminiParameters } from './gemini-parameters.js';

interface Received {
  path: string;
  body: { contents: { role: string; parts: Record<string, unknown>[] }[] };
}
const received: Received[] = [];
const server = createServer(async (request: IncomingMessage, response) => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  received.push({ path: request.url ?? '', body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
  response.writeHead(200, { 'content-type': 'application/json' });
  response.end(JSON.stringify({ candidates: [{ content: { role: 'model', parts: [{ text: 'seen' }] } }] }));
});
let baseUrl = '';
beforeAll(async () => {
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((closed) => server.close(() => closed())));

const MODEL = 'gemini-3.1-pro-preview';

/** An image part as view_file sends it to `model`: fitted to the model's working size. */
async function fitted(width: number, height: number, model: string, route?: ModelRoute): Promise<ImagePart> {
  const { workingSize } = route?.capabilities ?? capabilitiesFor({ provider: 'gemini', model });
  const png = await make.screenshotPng({ width, height });
  const result = await fit(png, { preset: 'gemini', ...(workingSize && { workingSize }) });
  return {
    type: 'image',
    mediaType: result.mediaType as ImagePart['mediaType'],
    data: Buffer.from(result.data).toString('base64'),
    width: result.width,
    height: result.height,
  };
}

/** What the SDK sent for `messages` to `model`, by way of the serializer. */
async function sent(messages: Message[], model: string, route?: ModelRoute): Promise<Received> {
  const { body } = serializeGemini({ messages, ...(route ? { route } : { model }) });
  // v1beta, as the live client (clients/gemini-client.ts) calls it: the version Google documents the field for.
  const client = new GoogleGenAI({
    apiKey: 'test',
    httpOptions: { baseUrl, apiVersion: 'v1beta', retryOptions: { attempts: 1 } },
  });
  const reply = await client.models.generateContent(toGeminiParameters(body, model));
  expect(reply.text).toBe('seen');
  return received.at(-1)!;
}

describe('Gemini 3 media_resolution per part', () => {
  it('fits to high (1,120 patches of 48 px), sets each image’s level on the wire, and counts what it set', async () => {
    // A 5K capture (fitted to high's size), a 1000×700 window (medium), a 600×400 dialog (low).
    const [screen, window, dialog] = [
      await fitted(5120, 2880, MODEL),
      await fitted(1000, 700, MODEL),
      await fitted(600, 400, MODEL),
    ];
    // The working size: within 1,120 tokens of 48 px, as large as that allows (no second downscale on the server).
    const patches = (image: ImagePart) => Math.ceil(image.width! / 48) * Math.ceil(image.height! / 48);
    expect(patches(screen)).toBeLessThanOrEqual(1120);
    expect(patches(screen)).toBeGreaterThan(1050);
    expect(screen.width! / screen.height!).toBeCloseTo(16 / 9, 1);
    expect([window.width, window.height, dialog.width, dialog.height]).toEqual([1000, 700, 600, 400]);

    const message: Message = {
      role: 'user',
      parts: [{ type: 'text', text: 'Compare.' }, screen, window, dialog],
    };
    const { path, body } = await sent([message], MODEL);
    expect(path).toMatch(new RegExp(`^/v1beta/models/${MODEL.replaceAll('.', '\\.')}:generateContent`));
    const levels = body.contents[0]!.parts.slice(1).map((part) => part.mediaResolution);
    expect(levels).toEqual([
      { level: 'MEDIA_RESOLUTION_HIGH' },
      { level: 'MEDIA_RESOLUTION_MEDIUM' }, // 21×15 = 315 patches
      { level: 'MEDIA_RESOLUTION_LOW' }, // 13×9 = 117 patches
    ]);
    // The estimate counts the levels set: 1,120 + 560 + 280, and the text.
    expect(estimateMessageTokens(message, { provider: 'gemini', model: MODEL })).toBe(1120 + 560 + 280 + 2);
  });

  it('sets no level inside a function response (the API has no field there) and counts it at the default, high', async () => {
    const dialog = await fitted(600, 400, MODEL);
    const messages: Message[] = [
      { role: 'user', parts: [{ type: 'text', text: 'Look at it.' }] },
      { role: 'assistant', text: '', toolCalls: [{ id: 'c1', name: 'view_file', arguments: { path: 'd.png' } }] },
      { role: 'toolResult', toolCallId: 'c1', toolName: 'view_file', parts: [dialog], isError: false },
    ];
    const { body } = await sent(messages, MODEL);
    const response = body.contents[2]!.parts[0]!.functionResponse as { parts: Record<string, unknown>[] };
    expect(response.parts).toHaveLength(1);
    expect(response.parts[0]).not.toHaveProperty('mediaResolution');
    expect(JSON.stringify(body)).not.toContain('mediaResolution');
    expect(estimateMessageTokens(messages[2]!, { provider: 'gemini', model: MODEL })).toBe(1120);
  });

  it('an image of unknown size (no width/height) is sent at high and counted at high, 1,120, not the fixed 1,200', async () => {
    const dialog = await fitted(600, 400, MODEL);
    const sizeless: ImagePart = { type: 'image', mediaType: dialog.mediaType, data: dialog.data };
    const message: Message = { role: 'user', parts: [sizeless] };
    const { body } = await sent([message], MODEL);
    expect(body.contents[0]!.parts.map((part) => part.mediaResolution)).toEqual([{ level: 'MEDIA_RESOLUTION_HIGH' }]);
    expect(estimateMessageTokens(message, { provider: 'gemini', model: MODEL })).toBe(1120);
  });

  it('Gemini 2.5 gets no level and keeps its tile rule and the gemini preset’s size', async () => {
    expect(capabilitiesFor({ provider: 'gemini', model: 'gemini-2.5-flash' }).workingSize).toBeUndefined();
    const screen = await fitted(5120, 2880, 'gemini-2.5-flash');
    expect([screen.width, screen.height]).toEqual([3072, 1728]);
    const { body } = await sent([{ role: 'user', parts: [screen] }], 'gemini-2.5-flash');
    expect(JSON.stringify(body)).not.toContain('mediaResolution');
  });

  it('a PDF in a turn is set to medium (Google’s level for documents) and counted at 560 a page', async () => {
    const message: Message = {
      role: 'user',
      parts: [{ type: 'document', mediaType: 'application/pdf', data: 'JVBERi0xLjQK', pages: 3, filename: 'r.pdf' }],
    };
    const { body } = await sent([message], MODEL);
    expect(body.contents[0]!.parts.map((part) => part.mediaResolution)).toEqual([{ level: 'MEDIA_RESOLUTION_MEDIUM' }]);
    expect(estimateMessageTokens(message, { provider: 'gemini', model: MODEL })).toBe(3 * 560);
    // Gemini 2.5 takes no per-part level: none on the wire.
    expect(JSON.stringify((await sent([message], 'gemini-2.5-flash')).body)).not.toContain('mediaResolution');
  });

  it('ultra_high only when asked (maxMediaResolution): fitted to 2,240 patches, set on the wire, counted', async () => {
    const route = resolveRoute({ provider: 'gemini', model: MODEL, overrides: { maxMediaResolution: 'ultra_high' } });
    expect(route.capabilities.maxMediaResolution).toBe('ultra_high');
    // Tool-result media go after the function responses, where a level can be set.
    expect(route.capabilities.mediaInToolResults).toBe(false);
    const screen = await fitted(5120, 2880, MODEL, route);
    const patches = Math.ceil(screen.width! / 48) * Math.ceil(screen.height! / 48);
    expect(patches).toBeLessThanOrEqual(2240);
    expect(patches).toBeGreaterThan(1120 * 1.8);
    const window = await fitted(1000, 700, MODEL, route);
    const messages: Message[] = [
      { role: 'user', parts: [{ type: 'text', text: 'Look.' }] },
      { role: 'assistant', text: '', toolCalls: [{ id: 'c1', name: 'view_file', arguments: { path: 's.png' } }] },
      { role: 'toolResult', toolCallId: 'c1', toolName: 'view_file', parts: [screen, window], isError: false },
    ];
    const { body } = await sent(messages, MODEL, route);
    const media = body.contents[2]!.parts.filter((part) => part.inlineData !== undefined);
    expect(media.map((part) => part.mediaResolution)).toEqual([
      { level: 'MEDIA_RESOLUTION_ULTRA_HIGH' },
      { level: 'MEDIA_RESOLUTION_MEDIUM' }, // the cheapest that holds it whole, as without the option
    ]);
    expect(estimateMessageTokens(messages[2]!, { provider: 'gemini', route })).toBe(2240 + 560);
    // Never chosen by default: the same screen on the default route is fitted to high and sent at high.
    const plain = await fitted(5120, 2880, MODEL);
    const { body: plainBody } = await sent([{ role: 'user', parts: [plain] }], MODEL);
    expect(plainBody.contents[0]!.parts[0]!.mediaResolution).toEqual({ level: 'MEDIA_RESOLUTION_HIGH' });
    // Other models drop the option.
    const older = resolveRoute({
      provider: 'gemini',
      model: 'gemini-2.5-flash',
      overrides: { maxMediaResolution: 'ultra_high' },
    });
    expect(older.capabilities.maxMediaResolution).toBeUndefined();
    expect(older.capabilities.workingSize).toBeUndefined();
  });

  it('runAgent takes the option as a capability override: its tool’s screenshot goes at ultra_high', async () => {
    const png = await make.screenshotPng({ width: 5120, height: 2880 });
    const bodies: unknown[] = [];
    let turn = 0;
    await runAgent({
      model: {
        inputModalities: ['text', 'image', 'pdf'],
        next: async (request) => {
          bodies.push(request.serialized.body);
          return turn++ === 0
            ? { text: '', toolCalls: [{ id: 'c1', name: 'shot', arguments: {} }] }
            : { text: 'seen', toolCalls: [] };
        },
      },
      provider: 'gemini',
      modelId: MODEL,
      capabilities: { maxMediaResolution: 'ultra_high' },
      tools: [
        {
          definition: { name: 'shot', description: 'A screenshot', parameters: { type: 'object' } },
          handler: () => ({ attachments: [{ bytes: png, filename: 's.png' }] }),
        },
      ],
      prompt: 'Look.',
    });
    expect(JSON.stringify(bodies[1])).toContain('"mediaResolution":{"level":"MEDIA_RESOLUTION_ULTRA_HIGH"}');
  });
});
