// The pi adapters through the real @mariozechner/pi-ai and pi-agent-core (0.73.1), on a capturing fetch: pi's
// own agent loop runs, and the test reads what pi would have put on the wire.
import { Agent, type AgentTool } from '@mariozechner/pi-agent-core';
import { complete, getModel, type Model, type Message as PiMessage } from '@mariozechner/pi-ai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readSample } from './support/read-sample.js';
import { createFileTools, type Message } from '../packages/agent/src/index.js';
import { MemoryFileSystem } from '../packages/agent/src/entries/fs.js';
import {
  fitPiToolResults,
  fitPiTool,
  fromPiMessage,
  toPiMessages,
  toPiTool,
} from '../packages/agent/src/entries/pi.js';
import { at } from './support/json-path.js';
import { captureFetch, type CaptureFetch } from './support/capture-fetch.js';
import { anthropicStream, openAIChatStream, sseResponse, type StreamedTurn } from './support/stream-replies.js';
import { decodeStrictly, findWireMedia } from './support/wire-media.js';

const sample = readSample;
const photo = await sample('photo-exif6.jpg'); // 4000x3000 stored, orientation 6: upright 3000x4000
const report = await sample('report.pdf');

const claude = getModel('anthropic', 'claude-sonnet-4-6');
const gptChat: Model<'openai-completions'> = {
  id: 'gpt-4.1',
  name: 'GPT-4.1',
  api: 'openai-completions',
  provider: 'openai',
  baseUrl: 'https://api.openai.com/v1',
  reasoning: false,
  input: ['text', 'image'],
  cost: { input: 2, output: 8, cacheRead: 0.5, cacheWrite: 0 },
  contextWindow: 1_047_576,
  maxTokens: 32_768,
};

/** Stubs the global fetch (pi builds its SDK clients on it) with a script of streamed turns. */
function stubFetch(
  model: Model<'anthropic-messages'> | Model<'openai-completions'>,
  turns: StreamedTurn[],
): CaptureFetch {
  const capture = captureFetch((_request, index) => {
    const turn = turns[index] ?? { text: 'done' };
    return sseResponse(model.api === 'anthropic-messages' ? anthropicStream(turn) : openAIChatStream(turn));
  });
  vi.stubGlobal('fetch', capture.fetch);
  return capture;
}
afterEach(() => {
  vi.unstubAllGlobals();
});

/** A pi tool that knows nothing of glimpse: it hands over the 1.7 MB camera original, sideways as stored. */
const camera: AgentTool = {
  name: 'camera',
  label: 'Camera',
  description: 'Takes a photo.',
  parameters: { type: 'object', properties: {} },
  execute: async () => ({
    content: [
      { type: 'text', text: 'Took photo.jpg.' },
      { type: 'image', data: Buffer.from(photo).toString('base64'), mimeType: 'image/jpeg' },
    ],
    details: undefined,
  }),
};

async function runAgent(model: typeof claude | typeof gptChat, tools: AgentTool[], options: { hook?: boolean } = {}) {
  const capture = stubFetch(model, [
    { toolCalls: [{ id: 'call_1', name: tools[0]!.name, arguments: { path: 'report.pdf' } }] },
    { text: 'A hill under a sun.' },
  ]);
  const agent: Agent = new Agent({
    initialState: { model, tools },
    getApiKey: () => 'test-key',
    ...(options.hook === true && { afterToolCall: fitPiToolResults({ model: () => agent.state.model }) }),
  });
  await agent.prompt('Take a photo.');
  expect(agent.state.errorMessage).toBeUndefined();
  expect(capture.requests).toHaveLength(2);
  return { agent, request: capture.requests[1]! };
}

describe('fitPiTool on a pi agent (pi-agent-core Agent, pi-ai anthropic-messages)', () => {
  it("fits the tool result: upright, at Claude's working size, decodable, with media_type on the wire", async () => {
    const { request } = await runAgent(claude, [fitPiTool(camera, { model: claude })]);
    const [image, ...rest] = findWireMedia(request.json);
    expect(rest).toEqual([]);
    expect(image!.path).toMatch(/^messages\.2\.content\.0\.content\.\d+\.source\.data$/);
    const source = image!.path.replace(/\.data$/, '');
    expect(at(request.json, `${source}.media_type`)).toBe('image/jpeg');
    // 1,568 patches of 28 px (34×46 = 1,564); 1176×1568 would be 2,352, shrunk again by the server.
    expect(await decodeStrictly(image!.bytes)).toMatchObject({ width: 952, height: 1269 });
    expect(request.text).toContain('was resized from 3000x4000 to 952x1269 px');
  });

  it('without it pi sends the sideways 4000x3000 original (what the wrapper fixes)', async () => {
    const { request } = await runAgent(claude, [camera]);
    const [image] = findWireMedia(request.json);
    expect(await decodeStrictly(image!.bytes)).toMatchObject({ width: 4000, height: 3000 });
    expect(image!.bytes.length).toBe(photo.length);
  });
});

describe('fitPiToolResults as the afterToolCall hook (pi-ai openai-completions)', () => {
  it('fits the result of a tool that was not wrapped; pi lifts it into a user message', async () => {
    const { request } = await runAgent(gptChat, [camera], { hook: true });
    const [image, ...rest] = findWireMedia(request.json);
    expect(rest).toEqual([]);
    const messages = at(request.json, 'messages') as Array<{ role: string }>;
    const index = Number(image!.path.split('.')[1]);
    expect(messages[index]!.role).toBe('user');
    expect(messages[index - 1]!.role).toBe('tool');
    // A tile model: 768 px on the short side, what it works at.
    expect(await decodeStrictly(image!.bytes)).toMatchObject({ width: 768, height: 1024 });
  });
});

describe('toPiTool: glimpse file tools in pi', () => {
  const files = createFileTools({
    fileSystem: new MemoryFileSystem({ files: { '/work/report.pdf': report, '/work/photo.jpg': photo } }),
    root: '/work',
    route: { provider: 'anthropic', model: 'claude-sonnet-4-6' },
  });

  it('a PDF never vanishes: pi gets its text and its pages as images', async () => {
    const { agent, request } = await runAgent(claude, [toPiTool(files.viewFile, { model: claude })]);
    const pages = findWireMedia(request.json);
    expect(pages).toHaveLength(2);
    for (const page of pages) expect(page.path).toMatch(/^messages\.2\.content\.0\.content\.\d+\.source\.data$/);
    for (const page of pages) expect(await decodeStrictly(page.bytes)).toMatchObject({ width: 952, height: 1232 }); // 1,568 patches
    const result = agent.state.messages.find((m: { role: string }) => m.role === 'toolResult');
    const text = JSON.stringify(result);
    expect(text).toContain('report.pdf is given as its text and page images: this route takes no PDF documents');
    expect(text).toContain('Quarterly report, page 1 of 2');
  });

  it('a failed call is a pi error result with glimpse’s message', async () => {
    const capture = stubFetch(claude, [
      { toolCalls: [{ id: 'call_1', name: 'view_file', arguments: { path: 'missing.png' } }] },
      { text: 'ok' },
    ]);
    const agent = new Agent({
      initialState: { model: claude, tools: [toPiTool(files.viewFile)] },
      getApiKey: () => 'k',
    });
    await agent.prompt('look');
    const result = agent.state.messages.find((m) => m.role === 'toolResult');
    expect(result).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: expect.stringContaining('E_FILE_NOT_FOUND') }],
    });
    expect(capture.requests).toHaveLength(2);
  });
});

describe('toPiMessages: a glimpse conversation replayed through pi-ai', () => {
  const square = async () =>
    Buffer.from(
      await (await import('sharp'))
        .default({ create: { width: 64, height: 48, channels: 3, background: '#08f' } })
        .png()
        .toBuffer(),
    ).toString('base64');
  const history = async (): Promise<Message[]> => [
    { role: 'user', parts: [{ type: 'text', text: 'Show me the screen.' }] },
    { role: 'assistant', text: 'Taking it.', toolCalls: [{ id: 'call_abc', name: 'screen', arguments: {} }] },
    {
      role: 'toolResult',
      toolCallId: 'call_abc',
      toolName: 'screen',
      isError: false,
      parts: [{ type: 'image', mediaType: 'image/png', data: await square(), width: 64, height: 48 }],
    },
    { role: 'assistant', text: 'A blue screen.', toolCalls: [] },
    { role: 'user', parts: [{ type: 'text', text: 'Thanks.' }] },
  ];

  it('logged assistant turns are complete pi messages: pi-ai sends them as tool_use and tool_result', async () => {
    const capture = stubFetch(claude, [{ text: 'You are welcome.' }]);
    const messages = await toPiMessages(await history());
    const reply = await complete(
      claude,
      {
        messages,
        tools: [{ name: 'screen', description: 'Screenshot.', parameters: { type: 'object', properties: {} } }],
      },
      { apiKey: 'k' },
    );
    expect(reply.stopReason).toBe('stop');
    const body = capture.requests[0]!.json;
    expect(at(body, 'messages.1.content')).toEqual([
      { type: 'text', text: 'Taking it.' },
      { type: 'tool_use', id: 'call_abc', name: 'screen', input: {} },
    ]);
    expect(at(body, 'messages.2.content.0.type')).toBe('tool_result');
    // pi puts a line of text before an image-only result; the image keeps its type.
    expect(at(body, 'messages.2.content.0.content.1.source.media_type')).toBe('image/png');
  });

  it('a bare logged entry, as glimpse writes it, makes pi-ai fail (what toPiMessages fixes)', async () => {
    stubFetch(claude, [{ text: 'x' }]);
    const logged = {
      role: 'assistant',
      text: 'Taking it.',
      toolCalls: [{ id: 'call_abc', name: 'screen', arguments: {} }],
    } as unknown as PiMessage;
    const reply = await complete(
      claude,
      {
        messages: [
          { role: 'user', content: 'hi', timestamp: 0 },
          logged,
          { role: 'user', content: 'go', timestamp: 0 },
        ],
      },
      { apiKey: 'k' },
    );
    expect(reply.stopReason).toBe('error');
  });

  it('fromPiMessage brings a pi run back as glimpse messages (pi keeps no pixel size)', async () => {
    const original = await history();
    const unsized = original.map(
      (m): Message =>
        m.role === 'toolResult'
          ? {
              ...m,
              parts: m.parts.map((p) =>
                p.type === 'image' ? { type: 'image', mediaType: p.mediaType, data: p.data } : p,
              ),
            }
          : m,
    );
    expect((await toPiMessages(original)).map(fromPiMessage)).toEqual(unsized);
  });
});
