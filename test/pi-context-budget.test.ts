// fitPiContext as pi-agent-core's transformContext hook, through the real pi-ai anthropic-messages client on a
// capturing fetch: each request pi sends stays under the byte cap, the newest screenshot goes as the tool gave
// it, older ones are fitted smaller, and pi's own context keeps every original.
import { Agent, type AgentTool } from '@mariozechner/pi-agent-core';
import { getModel } from '@mariozechner/pi-ai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fitPiContext } from '../packages/agent/src/entries/pi.js';
import type { SerializeWarning } from '../packages/agent/src/index.js';
import { captureFetch } from './support/capture-fetch.js';
import { denseScreenshot } from './support/dense-screenshot.js';
import { assertStrictlyValid } from './support/strict-oracle.js';
import { anthropicStream, sseResponse, type StreamedTurn } from './support/stream-replies.js';
import { findWireMedia } from './support/wire-media.js';

const claude = getModel('anthropic', 'claude-sonnet-4-6');
const TURNS = 4;
const shots = await Promise.all(
  Array.from({ length: TURNS }, async (_, i) => (await denseScreenshot({ seed: 70 + i })).toString('base64')),
);

const screen: AgentTool = {
  name: 'screenshot',
  label: 'Screenshot',
  description: 'Takes a screenshot.',
  parameters: { type: 'object', properties: { n: { type: 'number' } } },
  execute: async (_id, params) => ({
    content: [{ type: 'image', data: shots[Number((params as { n: number }).n)]!, mimeType: 'image/png' }],
    details: undefined,
  }),
};

afterEach(() => vi.unstubAllGlobals());

describe('fitPiContext (pi transformContext)', () => {
  it('keeps every request under its cap, oldest screenshots fitted smaller, the newest as it came', async () => {
    const turns: StreamedTurn[] = [
      ...Array.from({ length: TURNS }, (_, n) => ({
        toolCalls: [{ id: `call_${n}`, name: 'screenshot', arguments: { n } }],
      })),
      { text: 'Seen them all.' },
    ];
    const capture = captureFetch((_request, index) => sseResponse(anthropicStream(turns[index] ?? { text: 'done' })));
    vi.stubGlobal('fetch', capture.fetch);
    const warnings: SerializeWarning[] = [];
    const cap = 4_000_000; // four ~1.5 MB screenshots would take ~5.9 MB
    const agent: Agent = new Agent({
      initialState: { model: claude, tools: [screen] },
      getApiKey: () => 'test-key',
      transformContext: fitPiContext({
        model: () => agent.state.model,
        maxRequestBytes: cap,
        onWarning: (warning) => warnings.push(warning),
      }),
    });
    await agent.prompt('Look four times.');
    expect(agent.state.errorMessage).toBeUndefined();
    expect(capture.requests).toHaveLength(TURNS + 1);
    for (const [turn, request] of capture.requests.entries()) {
      expect(Buffer.byteLength(request.text)).toBeLessThan(cap);
      const media = findWireMedia(request.json);
      expect(media).toHaveLength(turn);
      for (const medium of media) assertStrictlyValid(medium.bytes, medium.mediaType, medium.path);
    }
    const last = findWireMedia(capture.requests.at(-1)!.json);
    expect(Buffer.from(last.at(-1)!.bytes).toString('base64')).toBe(shots[TURNS - 1]);
    expect(last[0]!.mediaType).toBe('image/jpeg');
    expect(warnings.some((w) => w.type === 'media-refitted')).toBe(true);
    // pi's context still holds each screenshot as the tool gave it.
    const kept = agent.state.messages.flatMap((m) =>
      m.role === 'toolResult' ? m.content.flatMap((c) => (c.type === 'image' ? [c.data] : [])) : [],
    );
    expect(kept).toEqual(shots);
  }, 120_000);
});
