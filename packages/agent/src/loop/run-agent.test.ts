import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSession } from '../session/load-session.js';
import { SessionWriter } from '../session/session-writer.js';
import { ReplayModel } from './replay-model.js';
import { parseReplayScript, ReplayScriptError } from './replay-script.js';
import { throwsWith } from '../../../../test/support/typed-errors.js';
import type { AgentTool, Message } from '../types.js';
import { runAgent } from './run-agent.js';

let png: string;
beforeAll(async () => {
  png = (
    await sharp({ create: { width: 64, height: 48, channels: 3, background: '#3070c0' } })
      .png()
      .toBuffer()
  ).toString('base64');
});

const snapshotTool: AgentTool = {
  definition: {
    name: 'snapshot',
    description: 'Takes a picture.',
    parameters: { type: 'object', properties: { label: { type: 'string' } } },
  },
  async execute(args) {
    return {
      parts: [
        { type: 'text', text: `snapshot ${String(args.label)}` },
        { type: 'image', mediaType: 'image/png', data: png, width: 64, height: 48 },
      ],
      isError: false,
    };
  },
};
const brokenTool: AgentTool = {
  definition: { name: 'broken', description: 'Always throws.', parameters: { type: 'object' } },
  async execute() {
    throw new Error('disk on fire');
  },
};

const script = (inputModalities: string[]) =>
  parseReplayScript({
    inputModalities,
    turns: [
      {
        text: 'Looking.',
        toolCalls: [
          { name: 'snapshot', arguments: { label: 'a' } },
          { name: 'snapshot', arguments: { label: 'b' } },
          { name: 'broken' },
          { name: 'nope' },
        ],
      },
      { text: 'I saw two blue rectangles.' },
    ],
  });

describe('runAgent with the replay model', () => {
  it('runs tools in parallel, appends results in call order, and serializes each request', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'glimpse-loop-')), 'run.jsonl');
    const session = await SessionWriter.open(path, { app: { name: 'loop-test' } });
    const model = new ReplayModel(script(['text', 'image']));
    const steps: number[] = [];
    const run = await runAgent({
      model,
      provider: 'anthropic',
      tools: [snapshotTool, brokenTool],
      prompt: 'Take pictures.',
      session,
      onStep: (step) => steps.push(step.results.length),
    });
    await session.close();

    expect(run).toMatchObject({ steps: 2, stopped: 'done' });
    expect(steps).toEqual([4, 0]);
    expect(run.messages.map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'toolResult',
      'toolResult',
      'toolResult',
      'toolResult',
      'assistant',
    ]);
    const results = run.messages.filter((m) => m.role === 'toolResult');
    expect(results.map((r) => [r.toolCallId, r.isError])).toEqual([
      ['call_0_0', false],
      ['call_0_1', false],
      ['call_0_2', true],
      ['call_0_3', true],
    ]);
    expect(results[2]!.parts).toEqual([{ type: 'text', text: 'The broken tool failed: disk on fire' }]);
    expect(results[3]!.parts[0]).toMatchObject({
      type: 'text',
      text: expect.stringContaining('There is no tool named "nope". Available tools: snapshot, broken.'),
    });

    // The second request carries the images natively inside Anthropic tool_result blocks.
    const second = model.requests[1]!.serialized;
    if (second.provider !== 'anthropic') throw new Error(`serialized for ${second.provider}`);
    expect(JSON.stringify(second.body.messages)).toContain(png);
    expect(second.body.tools?.map((tool) => tool.name)).toEqual(['snapshot', 'broken']);

    expect((await loadSession(path)).messages).toStrictEqual(run.messages);
  });

  it('a text-only model gets placeholders, never the bytes', async () => {
    const model = new ReplayModel(script(['text']));
    await runAgent({
      model,
      provider: 'openai-chat',
      modelId: 'gpt-4o',
      tools: [snapshotTool, brokenTool],
      prompt: 'Take pictures.',
    });
    const sent = JSON.stringify(model.requests[1]!.serialized.body);
    expect(sent).not.toContain(png);
    expect(model.requests[1]!.serialized.warnings.some((w) => w.type === 'media-omitted')).toBe(true);
  });

  it('stops after maxSteps while the model keeps calling tools', async () => {
    const looping = parseReplayScript({
      inputModalities: ['text'],
      turns: [{ toolCalls: [{ name: 'snapshot' }] }, { toolCalls: [{ name: 'snapshot' }] }, { text: 'end' }],
    });
    const run = await runAgent({
      model: new ReplayModel(looping),
      provider: 'gemini',
      tools: [snapshotTool],
      prompt: 'go',
      maxSteps: 1,
    });
    expect(run).toMatchObject({ steps: 1, stopped: 'max-steps' });
  });
});

describe('runAgent with a context budget', () => {
  it('sends a window with older images as placeholders while the session keeps every byte', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'glimpse-loop-')), 'budget.jsonl');
    const session = await SessionWriter.open(path);
    const square = (
      await sharp({ create: { width: 1000, height: 1000, channels: 3, background: '#fff' } })
        .png()
        .toBuffer()
    ).toString('base64');
    const screen: AgentTool = {
      definition: { name: 'screen', description: 'Screenshot.', parameters: { type: 'object' } },
      execute: async () => ({
        parts: [{ type: 'image', mediaType: 'image/png', data: square, width: 1000, height: 1000 }],
        isError: false,
      }),
    };
    const turns = [1, 2, 3].map(() => ({ toolCalls: [{ name: 'screen' }] }));
    const model = new ReplayModel(
      parseReplayScript({ inputModalities: ['text', 'image'], turns: [...turns, { text: 'done' }] }),
    );
    // 1000×1000 costs 1,296 tokens on Anthropic: room for one image and the text, not three images.
    await runAgent({ model, provider: 'anthropic', tools: [screen], prompt: 'go', session, contextBudget: 1500 });
    await session.close();
    const last = model.requests.at(-1)!;
    const images = last.messages
      .flatMap((m) => (m.role === 'user' || m.role === 'toolResult' ? m.parts : []))
      .filter((p) => p.type === 'image');
    expect(images).toHaveLength(1);
    expect(JSON.stringify(last.serialized.body)).toContain('[image omitted to save context');
    const logged = (await loadSession(path)).messages
      .flatMap((m) => (m.role === 'toolResult' ? m.parts : []))
      .filter((p) => p.type === 'image');
    expect(logged).toHaveLength(3);
  });
});

describe('runAgent with a handler tool', () => {
  it('assembles raw handler output with toolResultFrom: bytes are fitted to the route', async () => {
    const big = await sharp({ create: { width: 3000, height: 2000, channels: 3, background: '#804020' } })
      .png()
      .toBuffer();
    const capture: AgentTool = {
      definition: { name: 'capture', description: 'Captures the screen.', parameters: { type: 'object' } },
      handler: () => ({ text: 'captured', attachments: [{ bytes: new Uint8Array(big), filename: 'screen.png' }] }),
    };
    const model = new ReplayModel(
      parseReplayScript({
        inputModalities: ['text', 'image'],
        turns: [{ toolCalls: [{ name: 'capture' }] }, { text: 'ok' }],
      }),
    );
    const run = await runAgent({
      model,
      provider: 'anthropic',
      modelId: 'claude-sonnet-4-5',
      tools: [capture],
      prompt: 'capture',
    });
    const result = run.messages.find((m) => m.role === 'toolResult');
    if (result?.role !== 'toolResult') throw new Error('no tool result');
    const image = result.parts.find((p) => p.type === 'image');
    if (image?.type !== 'image') throw new Error('no image');
    // Claude's working size: 1,568 patches of 28 px (1568×1045 would be 2,114, shrunk again by the server).
    expect([image.width, image.height]).toEqual([1344, 896]);
    const decoded = await sharp(Buffer.from(image.data, 'base64')).metadata();
    expect([decoded.width, decoded.height]).toEqual([1344, 896]);
    expect(result.parts[0]).toEqual({ type: 'text', text: 'captured' });
    expect(result.parts.some((p) => p.type === 'text' && p.text.includes('3000'))).toBe(true);
  });
});

describe('parseReplayScript', () => {
  it('names the offending path', () => {
    const refused = (script: unknown) =>
      throwsWith(() => parseReplayScript(script), ReplayScriptError, 'E_REPLAY_SCRIPT').message;
    expect(refused({ inputModalities: ['text', 'smell'], turns: [{}] })).toContain('inputModalities[1] is "smell"');
    expect(refused({ inputModalities: [], turns: [{ toolCalls: [{ arguments: {} }] }] })).toContain(
      'turns[0].toolCalls[0].name is not a non-empty string',
    );
    expect(refused({ inputModalities: [], turns: [] })).toContain('turns is not a non-empty array');
  });
});

describe('runAgent with a history from a roomier route', () => {
  it('sends all 21 images of a history moved to Anthropic, fitted again, with the system prompt', async () => {
    const wide = (
      await sharp({ create: { width: 2048, height: 64, channels: 3, background: '#c03030' } })
        .png()
        .toBuffer()
    ).toString('base64');
    const history: Message[] = Array.from({ length: 21 }, (_, i): Message[] => [
      { role: 'assistant', text: '', toolCalls: [{ id: `h${i}`, name: 'snapshot', arguments: {} }] },
      {
        role: 'toolResult',
        toolCallId: `h${i}`,
        toolName: 'snapshot',
        parts: [{ type: 'image', mediaType: 'image/png', data: wide, width: 2048, height: 64 }],
        isError: false,
      },
    ]).flat();
    const model = new ReplayModel(parseReplayScript({ inputModalities: ['text', 'image'], turns: [{ text: 'done' }] }));
    await runAgent({
      model,
      provider: 'anthropic',
      modelId: 'claude-sonnet-5-5',
      system: 'Be brief.',
      tools: [snapshotTool],
      history,
      prompt: 'What changed?',
    });
    const { serialized } = model.requests[0]!;
    if (serialized.provider !== 'anthropic') throw new Error('expected anthropic');
    expect(serialized.body.system).toBe('Be brief.');
    const sent = JSON.stringify(serialized.body);
    const images = [
      ...sent.matchAll(/"type":"image","source":\{"type":"base64","media_type":"image\/png","data":"([^"]+)"/g),
    ].map((m) => m[1]!);
    expect(images).toHaveLength(21);
    // claude-sonnet-5-5 works at up to 2576 px, and Anthropic takes at most 2000 px an image past 20 of them.
    for (const data of images) expect((await sharp(Buffer.from(data, 'base64')).metadata()).width).toBe(2000);
    expect(serialized.warnings.filter((w) => w.type === 'media-omitted')).toEqual([]);
    expect(serialized.warnings.filter((w) => w.type === 'media-refitted')).toHaveLength(21);
  });
});
