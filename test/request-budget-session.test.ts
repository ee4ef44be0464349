// A session of 60 tool-result screenshots, run through runAgent and the live clients' official SDKs against a
// local server that refuses what the real API refuses (test/support/provider-caps.ts): every turn must be
// accepted, with every screenshot sent so far still an image where the budget allows it.
import { afterEach, describe, expect, it } from 'vitest';
import { runAgent, type HandlerTool } from '../packages/agent/src/index.js';
import { createModelClient } from '../packages/agent/src/entries/clients.js';
import { startApiServer, type ApiServer, type ScriptEntry } from './support/api-server.js';
import { denseScreenshot } from './support/dense-screenshot.js';
import { anthropicCaps, geminiCaps } from './support/provider-caps.js';
import { assertStrictlyValid } from './support/strict-oracle.js';
import { findWireMedia } from './support/wire-media.js';

const TURNS = 60;

/** Images in a request body, by their wire shape (Anthropic `type: image` blocks, Gemini `inlineData`). */
function imageCount(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + imageCount(item), 0);
  if (typeof value !== 'object' || value === null) return 0;
  const own = ('type' in value && value.type === 'image') || 'inlineData' in value ? 1 : 0;
  return own + Object.values(value).reduce((sum: number, item) => sum + imageCount(item), 0);
}

const screenshot: HandlerTool = {
  definition: { name: 'screenshot', description: 'Takes a screenshot', parameters: { type: 'object' } },
  handler: async (args) => ({
    text: 'the screen now',
    attachments: [{ bytes: await denseScreenshot({ seed: Number(args.n) }), filename: 'screen.png' }],
  }),
};

const script = (turns: number): ScriptEntry[] => [
  ...Array.from({ length: turns }, (_, i) => ({
    toolCalls: [{ id: `call_${i + 1}`, name: 'screenshot', arguments: { n: i + 1 } }],
  })),
  { text: 'All sixty looked at.' },
];

let server: ApiServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

// Gemini's cap is reached at 14 screenshots; 36 turns re-fit each older one several steps down (60 take ~5 min on
// two shared cores, measured in docs/budgets.md).
describe.each([
  { provider: 'anthropic' as const, model: 'claude-sonnet-4-6', caps: anthropicCaps, cap: 32_000_000, turns: TURNS },
  { provider: 'gemini' as const, model: 'gemini-3-pro-preview', caps: geminiCaps, cap: 20_000_000, turns: 36 },
])('runAgent, $turns screenshots, $provider’s caps enforced', ({ provider, model, caps, cap, turns }) => {
  it('completes every turn: each request under the cap, every screenshot still an image', async () => {
    server = await startApiServer(script(turns), caps);
    const run = await runAgent({
      model: createModelClient({
        provider,
        model,
        apiKey: 'test-key',
        baseUrl: server.url,
        maxRetries: 0,
        env: {},
      }),
      provider,
      modelId: model,
      tools: [screenshot],
      prompt: 'Take sixty screenshots, one at a time.',
      maxSteps: turns + 1,
    });
    expect(run.stopped).toBe('done');
    expect(server.requests).toHaveLength(turns + 1);
    const sizes = server.requests.map((request) => request.bytes);
    expect(Math.max(...sizes)).toBeLessThan(cap);
    // Every request carries every screenshot taken so far as an image: nothing left out, even at 60.
    server.requests.forEach((request, turn) => expect(imageCount(request.body), `turn ${turn}`).toBe(turn));
    const last = findWireMedia(server.requests.at(-1)!.body);
    expect(last).toHaveLength(turns);
    for (const medium of last) assertStrictlyValid(medium.bytes, medium.mediaType, medium.path);
    console.log(
      `${provider}: request bytes per turn (MB): ${sizes.map((bytes) => (bytes / 1e6).toFixed(2)).join(' ')}`,
    );
  }, 600_000);
});
