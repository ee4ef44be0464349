import { patchCount } from '@glimpse/media';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import * as make from '../../../../test/fixtures/make.js';
import { base64ToBytes, bytesToBase64 } from '../base64.js';
import { resolveRoute } from '../route/resolve-route.js';
import { toolResultFrom } from './tool-result-from.js';

describe('toolResultFrom fits the model, not only the route', () => {
  it('toolResultFrom sends a 3456×2234 screenshot at the size each Claude tier works at', async () => {
    const png = await make.screenshotPng({ width: 3456, height: 2234 });
    const sent = async (model: string) => {
      const message = await toolResultFrom({
        toolCallId: 'c1',
        toolName: 'screenshot',
        output: [{ type: 'image', data: bytesToBase64(png), mimeType: 'image/png' }],
        route: resolveRoute({ provider: 'anthropic', model }),
      });
      const image = message.parts.find((part) => part.type === 'image');
      if (image?.type !== 'image') throw new Error('no image part');
      const meta = await sharp(base64ToBytes(image.data)!).metadata();
      const note = message.parts.map((part) => (part.type === 'text' ? part.text : '')).join('');
      return { width: meta.width ?? 0, height: meta.height ?? 0, note };
    };
    const standard = await sent('claude-sonnet-4-5');
    expect(patchCount(standard, 28)).toBeLessThanOrEqual(1568);
    expect(standard.note).toContain(`to ${standard.width}x${standard.height} px`);
    const high = await sent('claude-opus-4-7');
    expect(patchCount(high, 28)).toBeLessThanOrEqual(4784);
    expect(high.width).toBeGreaterThan(2 * standard.width * 0.8);
  });
});
