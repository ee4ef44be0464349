import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { base64ToBytes } from './base64.js';
import { createFitCache, fitConversation } from './fit-conversation.js';
import type { ImagePart, Message } from './types.js';
import { serializeAnthropic } from './providers/anthropic.js';
import { serializeGemini } from './providers/gemini.js';

let wide: ImagePart; // 2048 px wide: what the openai preset leaves
let gif: ImagePart;

const png = async (width: number, height: number) =>
  (
    await sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 40 } } })
      .png()
      .toBuffer()
  ).toString('base64');

beforeAll(async () => {
  wide = { type: 'image', mediaType: 'image/png', data: await png(2048, 64), width: 2048, height: 64 };
  const gifBytes = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#0a0' } })
    .gif()
    .toBuffer();
  gif = { type: 'image', mediaType: 'image/gif', data: gifBytes.toString('base64'), width: 40, height: 30 };
});

/** One screenshot per tool result, as an agent on a roomier route collected them. */
function history(images: ImagePart[]): Message[] {
  const calls = images.map((_, i) => ({ id: `c${i}`, name: 'screen', arguments: {} }));
  return [
    { role: 'user', parts: [{ type: 'text', text: 'go' }] },
    { role: 'assistant', text: '', toolCalls: calls },
    ...images.map(
      (image, i): Message => ({
        role: 'toolResult',
        toolCallId: `c${i}`,
        toolName: 'screen',
        parts: [image],
        isError: false,
      }),
    ),
  ];
}

const imagesOf = (messages: Message[]) =>
  messages.flatMap((m) => (m.role === 'assistant' ? [] : m.parts)).filter((p): p is ImagePart => p.type === 'image');
const realSize = async (part: ImagePart) => {
  const meta = await sharp(base64ToBytes(part.data)!).metadata();
  return [meta.width, meta.height];
};

describe('fitConversation', () => {
  it('fits 21 images made for a roomier preset to Anthropic’s 2000 px rule instead of dropping them', async () => {
    const messages = history(Array.from({ length: 21 }, () => wide));
    const { messages: fitted, warnings } = await fitConversation({
      messages,
      provider: 'anthropic',
      model: 'claude-sonnet-5-5',
      capabilities: { preset: 'openai' },
    });
    const images = imagesOf(fitted);
    expect(images).toHaveLength(21);
    for (const image of images) expect(await realSize(image)).toEqual([2000, 63]);
    expect(warnings.filter((w) => w.type === 'media-refitted')).toHaveLength(21);
    // Serialized afterwards, every image is sent: no placeholder, no omission.
    const tools = [{ name: 'screenshot', description: 'Takes a screenshot', parameters: { type: 'object' } }];
    const request = serializeAnthropic({ messages: fitted, tools, capabilities: { preset: 'openai' } });
    expect(request.warnings).toEqual([]);
    expect(JSON.stringify(request.body).match(/"type":"image"/g)).toHaveLength(21);
    // Unfitted, the same history would have lost every image to the rule.
    expect(
      serializeAnthropic({ messages, capabilities: { preset: 'openai' } }).warnings.filter(
        (w) => w.type === 'media-omitted',
      ),
    ).toHaveLength(21);
  });

  it('leaves 20 such images alone: the rule starts above 20', async () => {
    const messages = history(Array.from({ length: 20 }, () => wide));
    const { messages: fitted, warnings } = await fitConversation({
      messages,
      provider: 'anthropic',
      capabilities: { preset: 'openai' },
    });
    expect(imagesOf(fitted).every((image) => image === wide)).toBe(true);
    expect(warnings).toEqual([]);
  });

  it('fits to the route’s own preset (Anthropic’s native 1568 px) and tells the model how coordinates map', async () => {
    const { messages: fitted, warnings } = await fitConversation({
      messages: history([wide]),
      provider: 'anthropic',
      model: 'claude-sonnet-4-5', // a standard model: 1568 px (claude-sonnet-5-5 works at 2576)
    });
    const result = fitted[2]!;
    if (result.role !== 'toolResult') throw new Error('expected the tool result');
    expect(await realSize(result.parts[0] as ImagePart)).toEqual([1568, 49]);
    expect(result.parts[1]).toEqual({
      type: 'text',
      text: expect.stringContaining('multiply coordinates in it by 1.306 to map them to the 2048x64 image'),
    });
    expect(warnings).toEqual([
      {
        type: 'media-refitted',
        mediaType: 'image/png',
        messageIndex: 2,
        from: { width: 2048, height: 64 },
        to: { width: 1568, height: 49 },
        message: expect.any(String),
      },
    ]);
  });

  it('converts a format the route refuses (GIF on Gemini) instead of sending a placeholder', async () => {
    const messages: Message[] = [{ role: 'user', parts: [{ type: 'text', text: 'see' }, gif] }];
    const { messages: fitted } = await fitConversation({
      messages,
      provider: 'gemini',
      model: 'gemini-3.1-pro-preview',
    });
    const [image] = imagesOf(fitted);
    expect(image?.mediaType).toBe('image/png');
    expect(await realSize(image!)).toEqual([40, 30]);
    expect(serializeGemini({ messages: fitted, model: 'gemini-3.1-pro-preview' }).warnings).toEqual([]);
  });

  it('placeholders only what no fitting can carry, with a warning', async () => {
    const broken: ImagePart = {
      type: 'image',
      mediaType: 'image/png',
      data: btoa('not a png at all'),
      width: 5000,
      height: 10,
    };
    const { messages: fitted, warnings } = await fitConversation({
      messages: [{ role: 'user', parts: [broken] }],
      provider: 'anthropic',
    });
    expect(fitted[0]).toEqual({
      role: 'user',
      parts: [
        {
          type: 'text',
          text: expect.stringMatching(
            /^\[an image \(image\/png, 5000x10 px\) was omitted: it could not be fitted .*\(E_/,
          ),
        },
      ],
    });
    expect(warnings).toMatchObject([{ type: 'media-omitted', reason: 'cannot-fit', messageIndex: 0 }]);
  });

  it('sends a text-only model the history as it is: the serializer placeholders it', async () => {
    const messages = history([wide]);
    const { messages: fitted, warnings } = await fitConversation({
      messages,
      provider: 'openai-chat',
      model: 'gpt-3.5-turbo',
    });
    expect(fitted).toEqual(messages);
    expect(warnings).toEqual([]);
  });

  it('fits each image once per cache, however many requests', async () => {
    const cache = createFitCache();
    const messages = history([wide]);
    const first = await fitConversation({ messages, provider: 'anthropic', cache });
    const second = await fitConversation({ messages, provider: 'anthropic', cache });
    expect(imagesOf(second.messages)[0]).toBe(imagesOf(first.messages)[0]);
    expect(second.warnings).toEqual(first.warnings);
  });
});
