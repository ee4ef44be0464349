// fitMediaMiddleware keeps the whole request within its bytes (here a gateway's 4 MB, under Anthropic's 32 MB):
// through generateText and the real @ai-sdk/anthropic provider on a capturing fetch, each tool step adds a
// screenshot; older ones are fitted smaller, the newest goes at its model's working size, still a PNG.
import { fitWorkingSize } from '@glimpse/media';
import { generateText, jsonSchema, stepCountIs, tool, wrapLanguageModel } from 'ai';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { fitMediaMiddleware, type FitMediaWarning } from '../packages/agent/src/entries/ai-sdk.js';
import { ANTHROPIC_STANDARD_SIZE } from '../packages/agent/src/route/working-sizes.js';
import { AI_SDK_PROVIDERS } from './support/ai-sdk-providers.js';
import { captureFetch } from './support/capture-fetch.js';
import { denseScreenshot } from './support/dense-screenshot.js';
import { assertStrictlyValid } from './support/strict-oracle.js';
import { findWireMedia } from './support/wire-media.js';

const STEPS = 4;
const shots = await Promise.all(
  Array.from({ length: STEPS }, async (_, i) => (await denseScreenshot({ seed: 300 + i })).toString('base64')),
);
let taken = 0;
const screenshot = tool({
  description: 'Takes a screenshot',
  inputSchema: jsonSchema<Record<string, never>>({ type: 'object', properties: {} }),
  execute: async () => ({ data: shots[taken++]! }),
  toModelOutput: ({ output }) => ({
    type: 'content',
    value: [{ type: 'file', data: { type: 'data', data: output.data }, mediaType: 'image/png' }],
  }),
});

describe('fitMediaMiddleware, the whole request', () => {
  it('keeps every step’s request under maxRequestBytes, the newest screenshot at its working size', async () => {
    const anthropic = AI_SDK_PROVIDERS.find((provider) => provider.route === 'anthropic')!;
    const capture = captureFetch((_request, index) =>
      index < STEPS ? anthropic.toolCall('screenshot', `call_${index}`) : anthropic.text('Seen.'),
    );
    const warnings: FitMediaWarning[] = [];
    const cap = 4_000_000; // four ~1.5 MB screenshots would take ~5.9 MB
    const model = wrapLanguageModel({
      model: anthropic.model(capture.fetch),
      middleware: fitMediaMiddleware({ maxRequestBytes: cap, onWarning: (warning) => warnings.push(warning) }),
    });
    const result = await generateText({
      model,
      tools: { screenshot },
      prompt: 'Look four times.',
      stopWhen: stepCountIs(STEPS + 1),
    });
    expect(result.text).toBe('Seen.');
    expect(capture.requests).toHaveLength(STEPS + 1);
    for (const [step, request] of capture.requests.entries()) {
      expect(Buffer.byteLength(request.text)).toBeLessThan(cap);
      const media = findWireMedia(request.json);
      expect(media).toHaveLength(step);
      for (const medium of media) assertStrictlyValid(medium.bytes, medium.mediaType, medium.path);
    }
    const last = findWireMedia(capture.requests.at(-1)!.json);
    // The newest is only fitted to what claude-sonnet-4-6 works at (1,568 patches), not spent by the budget.
    const newest = last.at(-1)!;
    const shot = await sharp(Buffer.from(shots[STEPS - 1]!, 'base64')).metadata();
    const { width, height } = await sharp(newest.bytes).metadata();
    expect([newest.mediaType, { width, height }]).toEqual([
      'image/png',
      fitWorkingSize({ width: shot.width!, height: shot.height! }, ANTHROPIC_STANDARD_SIZE),
    ]);
    expect(last[0]!.mediaType).toBe('image/jpeg');
    expect(warnings.some((warning) => warning.type === 'media-refitted')).toBe(true);
  }, 120_000);
});
