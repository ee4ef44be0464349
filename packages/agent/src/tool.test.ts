import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { base64ToBytes } from './base64.js';
import { toolResultFrom } from './tool.js';

async function png(width: number, height: number): Promise<Uint8Array> {
  return new Uint8Array(await sharp({ create: { width, height, channels: 3, background: { r: 200, g: 30, b: 30 } } }).png().toBuffer());
}

describe('toolResultFrom', () => {
  it('resizes an oversized screenshot and says how to map coordinates back', async () => {
    const result = await toolResultFrom({ toolCallId: 'c1', toolName: 'screenshot', output: { text: 'here', attachments: [{ bytes: await png(4000, 2000), filename: 'shot.png' }] }, preset: 'anthropic' });
    expect(result.isError).toBe(false);
    expect(result.parts.map((part) => part.type)).toEqual(['text', 'image', 'text']);
    const image = result.parts[1]!;
    if (image.type !== 'image') throw new Error('expected an image');
    const meta = await sharp(base64ToBytes(image.data)!).metadata();
    expect([meta.width, meta.height]).toEqual([1568, 784]);
    expect([image.width, image.height]).toEqual([1568, 784]);
    const note = result.parts[2]!;
    expect(note).toEqual({ type: 'text', text: '[shot.png was resized from 4000x2000 to 1568x784 px; multiply coordinates in it by 2.551 to get coordinates in the original]' });
  });
});
