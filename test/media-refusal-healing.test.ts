// Sessions that heal: a local server speaking Anthropic's API refuses one screenshot with a 400 naming its block
// (as the API does for an image it cannot process), or a whole request with a 413; runAgent, through the official
// SDK, classifies the refusal, repairs the outgoing copy, sends once more, and never sends the refused image again.
import { afterEach, describe, expect, it } from 'vitest';
import { runAgent, type HandlerTool, type Message } from '../packages/agent/src/index.js';
import { createModelClient } from '../packages/agent/src/entries/clients.js';
import { startApiServer, type ApiServer, type RequestCheck, type ScriptEntry } from './support/api-server.js';
import { denseScreenshot } from './support/dense-screenshot.js';

const TURNS = 8;
const shots = await Promise.all(
  Array.from({ length: TURNS }, async (_, i) =>
    (await denseScreenshot({ seed: 200 + i, width: 400, height: 300 })).toString('base64'),
  ),
);
const screenshot: HandlerTool = {
  definition: { name: 'screenshot', description: 'Takes a screenshot', parameters: { type: 'object' } },
  handler: (args) => ({
    attachments: [{ data: shots[Number(args.n)]!, mediaType: 'image/png', filename: 'screen.png' }],
  }),
};
const script = (): ScriptEntry[] => [
  ...Array.from({ length: TURNS }, (_, n) => ({
    toolCalls: [{ id: `call_${n}`, name: 'screenshot', arguments: { n } }],
  })),
  { text: 'Done.' },
];

/** Where an image with this base64 sits in an Anthropic body, as the API names a block; undefined if absent. */
function blockOf(body: unknown, data: string): string | undefined {
  const messages = (body as { messages: Array<{ content: unknown }> }).messages;
  for (const [i, message] of messages.entries()) {
    if (!Array.isArray(message.content)) continue;
    for (const [j, block] of message.content.entries()) {
      const inner = block.type === 'tool_result' && Array.isArray(block.content) ? block.content : [block];
      for (const [k, item] of inner.entries())
        if (item?.type === 'image' && item.source?.data === data)
          return block.type === 'tool_result'
            ? `messages.${i}.content.${j}.content.${k}`
            : `messages.${i}.content.${j}`;
    }
  }
  return undefined;
}

const BAD = 2; // the screenshot the server cannot process
const refusesOne: RequestCheck = (request) => {
  const block = blockOf(request.body, shots[BAD]!);
  return block === undefined
    ? undefined
    : { status: 400, type: 'invalid_request_error', message: `${block}.source.base64.data: Could not process image` };
};

let server: ApiServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const client = (url: string) =>
  createModelClient({
    provider: 'anthropic',
    model: 'claude-sonnet-4-6',
    apiKey: 'k',
    baseUrl: url,
    maxRetries: 0,
    env: {},
  });

describe('runAgent heals a refused image', () => {
  it('one repair, then the refused screenshot is never sent again, also after a restart', async () => {
    server = await startApiServer(script(), refusesOne);
    const run = await runAgent({
      model: client(server.url),
      provider: 'anthropic',
      tools: [screenshot],
      prompt: 'Look eight times.',
      maxSteps: TURNS + 1,
    });
    expect(run.stopped).toBe('done');
    expect(run.repairs).toMatchObject([
      {
        action: 'left-out',
        value: shots[BAD],
        refusal: {
          code: 'E_MEDIA_REFUSED',
          status: 400,
          path: ['messages', expect.any(Number), 'content', 0, 'content', 0],
        },
      },
    ]);
    // One refused request, then every request (TURNS + 1 answered) without that screenshot.
    const refused = server.requests.filter((request) => blockOf(request.body, shots[BAD]!) !== undefined);
    expect(refused).toHaveLength(1);
    expect(server.requests).toHaveLength(TURNS + 2);
    const after = server.requests.slice(server.requests.indexOf(refused[0]!) + 1);
    expect(after.length).toBeGreaterThanOrEqual(5);
    for (const request of after) expect(JSON.stringify(request.body)).toContain('the provider refused it once');
    // The history keeps the screenshot as the tool gave it.
    const kept = run.messages.flatMap((m: Message) => (m.role === 'toolResult' ? m.parts : []));
    expect(kept.some((part) => part.type === 'image' && part.data === shots[BAD])).toBe(true);

    // A restart with the decisions the app kept: the first request already leaves it out.
    await server.close();
    server = await startApiServer([{ text: 'Still fine.' }], refusesOne);
    const resumed = await runAgent({
      model: client(server.url),
      provider: 'anthropic',
      tools: [screenshot],
      history: run.messages,
      prompt: 'And now?',
      refusedMedia: run.repairs.flatMap((repair) => (repair.action === 'left-out' ? [String(repair.value)] : [])),
    });
    expect(resumed.repairs).toEqual([]);
    expect(server.requests).toHaveLength(1);
  }, 120_000);

  it('a 413 tightens the request’s bytes and the same turn goes through', async () => {
    // A gateway in front of the API that takes 500 KB, far less than the route's 32 MB.
    const gateway: RequestCheck = (request) =>
      request.bytes > 500_000
        ? { status: 413, type: 'request_too_large', message: 'Request exceeds the maximum allowed number of bytes.' }
        : undefined;
    server = await startApiServer(script(), gateway);
    const run = await runAgent({
      model: client(server.url),
      provider: 'anthropic',
      tools: [screenshot],
      prompt: 'Look.',
      maxSteps: TURNS + 1,
    });
    expect(run.stopped).toBe('done');
    expect(run.repairs.length).toBeGreaterThanOrEqual(1);
    expect(
      run.repairs.every(
        (repair) => repair.action === 'bytes-tightened' && repair.refusal.code === 'E_REQUEST_TOO_LARGE',
      ),
    ).toBe(true);
    const answered = server.requests.filter((request) => request.bytes <= 500_000);
    expect(answered).toHaveLength(TURNS + 1);
  }, 120_000);
});
