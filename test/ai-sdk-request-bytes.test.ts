// fitMediaMiddleware keeps the whole request within its bytes (here a gateway's 4 MB, under Anthropic's 32 MB):
// through generateText and the real @ai-sdk/anthropic provider on a capturing fetch, each tool step adds a
// screenshot; older ones are fitted smaller, the newest goes as the tool gave it.
import { generateText, jsonSchema, stepCountIs, tool, wrapLanguageModel } from 'ai';
import { describe, expect, it } from 'vitest';
import { fitMediaMiddleware, type FitMediaWarning } from '../packages/agent/src/entries/ai-sdk.js';
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
  it('keeps every step’s request under maxRequestBytes, the newest screenshot whole', async () => {
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
    expect(Buffer.from(last.at(-1)!.bytes).toString('base64')).toBe(shots[STEPS - 1]);
    expect(last[0]!.mediaType).toBe('image/jpeg');
    expect(warnings.some((warning) => warning.type === 'media-refitted')).toBe(true);
  }, 120_000);
});
