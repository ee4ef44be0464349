// A gateway in front of the API that answers 413 to any request over 100 KB (far under the providers' own 20–50 MB),
// through the real SDKs: four 400×300 screenshots in turn. The first screenshot's request (118 KB) is refused once;
// runAgent tightens the budget to 3/4 of it and from then on every request is under the gateway's cap and carries
// the newest screenshot, fitted smaller, as an image the model can see (older ones give way first). A fixed 64 KB
// headroom under the tightened 88 KB once left room for none, and every screenshot went as a placeholder.
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { createModelClient } from '../packages/agent/src/entries/clients.js';
import { type HandlerTool, runAgent } from '../packages/agent/src/index.js';
import { type ApiServer, type ScriptEntry, startApiServer } from './support/api-server.js';
import { gatewayUnder } from './support/provider-caps.js';
import { denseScreenshot } from './support/dense-screenshot.js';
import { psnr } from './support/psnr.js';
import { screenshotTool, screenshotTurns } from './support/screenshot-tool.js';
import { decodeStrictly, findWireMedia } from './support/wire-media.js';

const GATEWAY = 100_000;
const TURNS = 4;
const gateway = gatewayUnder(GATEWAY);

let server: ApiServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** RGB of an image, resized to 400×300 for comparison. */
async function rgb(bytes: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await sharp(bytes).resize(400, 300, { fit: 'fill' }).removeAlpha().raw().toBuffer());
}

describe.each([
  { provider: 'anthropic' as const, model: 'claude-sonnet-4-6' },
  { provider: 'openai-responses' as const, model: 'gpt-5.5' },
  { provider: 'gemini' as const, model: 'gemini-3-pro-preview' },
])('$provider behind a gateway that refuses requests over 100 KB', ({ provider, model }) => {
  it('after one 413 every request is under 100 KB and carries the newest screenshot as an image', async () => {
    const shots = await Promise.all(
      Array.from({ length: TURNS }, (_, n) => denseScreenshot({ seed: 300 + n, width: 400, height: 300 })),
    );
    const screenshot: HandlerTool = {
      definition: { name: 'screenshot', description: 'Takes a screenshot', parameters: { type: 'object' } },
      handler: (args) => ({ attachments: [{ bytes: shots[Number(args.n)]!, filename: 'screen.png' }] }),
    };
    const script: ScriptEntry[] = [
      ...Array.from({ length: TURNS }, (_, n) => ({
        toolCalls: [{ id: `call_${n}`, name: 'screenshot', arguments: { n } }],
      })),
      { text: 'Done.' },
    ];
    server = await startApiServer(script, gateway);
    const run = await runAgent({
      model: createModelClient({ provider, model, apiKey: 'k', baseUrl: server.url, maxRetries: 0, env: {} }),
      provider,
      modelId: model,
      tools: [screenshot],
      prompt: 'Look.',
      maxSteps: TURNS + 1,
    });
    expect(run.stopped).toBe('done');
    expect(run.repairs.map((repair) => repair.action)).toEqual(['bytes-tightened']);
    const sizes = server.requests.map((request) => request.bytes);
    // The prompt, the refused first screenshot, then its resend and one request per later turn.
    expect(sizes).toHaveLength(TURNS + 2);
    expect(sizes[1]).toBeGreaterThan(GATEWAY);
    expect(sizes.filter((bytes) => bytes > GATEWAY)).toHaveLength(1);

    const references = await Promise.all(shots.map(rgb));
    for (const [index, request] of server.requests.slice(2).entries()) {
      const images = findWireMedia(request.body).filter((media) => media.mediaType.startsWith('image/'));
      expect(images.length).toBeGreaterThanOrEqual(1);
      for (const image of images) await decodeStrictly(image.bytes);
      // The last image of the request is the screenshot just taken: far closer to it than to any other (a dense
      // screenshot's noise fitted to ~51 KB of JPEG keeps about 21 dB of it; the other screenshots score about 8).
      const seen = await rgb(images.at(-1)!.bytes);
      const scores = references.map((shot) => psnr(seen, shot));
      expect(scores.indexOf(Math.max(...scores))).toBe(index);
      expect(scores[index]).toBeGreaterThan(18);
      expect(Math.max(...scores.filter((_, n) => n !== index))).toBeLessThan(12);
    }
  }, 60_000);
});

/**
 * A gateway far smaller still: the first screenshot's request (~119 KB) is refused, and so is its resend under 3/4 of
 * it (~68 KB), which once failed the turn. Under 3/4 of that the screenshot is a placeholder (it fits no smaller).
 */
const SMALL = 45_000;
const small = gatewayUnder(SMALL);

describe.each([
  { provider: 'anthropic' as const, model: 'claude-sonnet-4-6' },
  { provider: 'openai-responses' as const, model: 'gpt-5.5' },
  { provider: 'gemini' as const, model: 'gemini-3-pro-preview' },
])('$provider behind a gateway that refuses requests over 45 KB', ({ provider, model }) => {
  it('a 413 after a 413 tightens again while each resend is smaller, and the run goes on under the cap', async () => {
    server = await startApiServer(screenshotTurns(0, TURNS), small);
    const run = await runAgent({
      model: createModelClient({ provider, model, apiKey: 'k', baseUrl: server.url, maxRetries: 0, env: {} }),
      provider,
      modelId: model,
      tools: [screenshotTool({ width: 400, height: 300 })],
      prompt: 'Look.',
      maxSteps: TURNS + 1,
    });
    expect(run.stopped).toBe('done');
    const sizes = server.requests.map((request) => request.bytes);
    const refused = sizes.flatMap((bytes, i) => (bytes > SMALL ? [i] : []));
    // All refusals in the first screenshot's turn, one after another (two or more), each resend smaller than the last.
    expect(refused.length).toBeGreaterThanOrEqual(2);
    expect(refused).toEqual(refused.map((_, i) => 1 + i));
    for (let i = 1; i < refused.length; i++) expect(sizes[refused[i]!]).toBeLessThan(sizes[refused[i - 1]!]!);
    // Each refusal tightened the cap to 3/4 of what it refused (as the loop measures it: the body the client sends
    // but for the few bytes it adds, at most 60).
    expect(run.repairs.map((repair) => repair.action)).toEqual(refused.map(() => 'bytes-tightened'));
    run.repairs.forEach((repair, i) => {
      const wire = sizes[refused[i]!]!;
      expect(repair.value).toBeGreaterThanOrEqual(Math.floor((wire - 60) * 0.75));
      expect(repair.value).toBeLessThanOrEqual(Math.floor(wire * 0.75));
    });
    // Then every request is under the gateway: the refused turn's resend and one per later turn.
    expect(sizes.slice(refused.at(-1)! + 1)).toHaveLength(TURNS);
    expect(Math.max(...sizes.slice(refused.at(-1)! + 1))).toBeLessThanOrEqual(SMALL);
  }, 60_000);
});
