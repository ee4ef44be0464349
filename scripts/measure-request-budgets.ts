// The figures of docs/budgets.md's "Measured with dense 1500×1000 screenshots": what `glimpse prepare` prints for
// 30 dense screenshots to Anthropic and 16 noisy ones to Gemini 2.5 and 3 (with and without the whole-request
// budget), and the request bytes per turn of a runAgent session of tool-result screenshots through the SDKs against
// a local server enforcing each provider's caps (test/support/provider-caps.ts). Run by hand, a few minutes:
// `node scripts/run-ts.mjs scripts/measure-request-budgets.ts [anthropic-turns] [gemini-turns]` (default 60 36).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import '../test/support/node-default-file-system.js'; // view_file reads the disk, as the CLI entry sets it
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { prepareConversation } from '../packages/agent/src/cli/prepare.js';
import { createModelClient } from '../packages/agent/src/entries/clients.js';
import { fitConversation } from '../packages/agent/src/fit-conversation.js';
import { runAgent, type HandlerTool } from '../packages/agent/src/index.js';
import { requestJson } from '../packages/agent/src/providers/request-json.js';
import { serialize } from '../packages/agent/src/providers/serialize.js';
import type { ProviderName } from '../packages/agent/src/route/capabilities.js';
import { resolveRoute } from '../packages/agent/src/route/resolve-route.js';
import { VIEW_FILE_TOOL_DEFINITION } from '../packages/agent/src/tools/view-file.js';
import { startApiServer, type RequestCheck } from '../test/support/api-server.js';
import { denseScreenshot } from '../test/support/dense-screenshot.js';
import { anthropicCaps, geminiCaps } from '../test/support/provider-caps.js';
import { findWireMedia } from '../test/support/wire-media.js';

const [anthropicTurns = 60, geminiTurns = 36] = process.argv.slice(2).map(Number);
const mb = (bytes: number) => (bytes / 1e6).toFixed(2);

/** `glimpse prepare FILES --provider P [--model M]`, as prepare.ts builds it: the request before and after the budget. */
async function prepare(files: string[], provider: ProviderName, model?: string): Promise<void> {
  const route = resolveRoute({ provider, ...(model !== undefined && { model }) });
  const messages = await prepareConversation(files, provider, model, { route });
  const conversation = { tools: [VIEW_FILE_TOOL_DEFINITION], route };
  const bytes = (body: unknown) => Buffer.byteLength(`${requestJson({ provider, ...(body as object) })}\n`);
  // Before: each image at its route's fit, the request as a whole unchecked.
  const before = bytes(serialize(provider, { ...conversation, messages }).body);
  const fitted = await fitConversation({ ...conversation, messages, provider });
  const body = serialize(provider, { ...conversation, messages: fitted.messages }).body;
  const media = findWireMedia(body);
  const refitted = fitted.warnings.filter((warning) => warning.type === 'media-refitted').length;
  console.log(
    `prepare ${files.length} → ${provider}${model ? ` (${model})` : ''}: ${mb(before)} MB before, ${mb(bytes(body))} MB after, ` +
      `${media.length} images sent, ${refitted} re-fitted for the request`,
  );
}

/** A runAgent session of `turns` screenshots against a server with `caps`: request bytes per turn. */
async function session(provider: 'anthropic' | 'gemini', model: string, caps: RequestCheck, turns: number) {
  const screenshot: HandlerTool = {
    definition: { name: 'screenshot', description: 'Takes a screenshot', parameters: { type: 'object' } },
    handler: async (args) => ({
      text: 'the screen now',
      attachments: [{ bytes: await denseScreenshot({ seed: Number(args.n) }), filename: 'screen.png' }],
    }),
  };
  const server = await startApiServer(
    [
      ...Array.from({ length: turns }, (_, i) => ({
        toolCalls: [{ id: `call_${i + 1}`, name: 'screenshot', arguments: { n: i + 1 } }],
      })),
      { text: 'Done.' },
    ],
    caps,
  );
  try {
    const run = await runAgent({
      model: createModelClient({ provider, model, apiKey: 'k', baseUrl: server.url, maxRetries: 2, env: {} }),
      provider,
      modelId: model,
      tools: [screenshot],
      prompt: 'Take the screenshots, one at a time.',
      maxSteps: turns + 1,
    });
    // A retry (the SDK's, after a reset keep-alive socket) is a request the server never read: it is not counted.
    const sizes = server.requests.map((request) => request.bytes);
    console.log(
      `session ${provider} (${model}), ${turns} screenshots, ${run.stopped}, ${server.requests.length} requests; MB per request: ${sizes.map(mb).join(' ')}`,
    );
  } finally {
    await server.close();
  }
}

const dir = await mkdtemp(join(tmpdir(), 'glimpse-measure-budgets-'));
try {
  const dense: string[] = [];
  const noisy: string[] = [];
  for (let i = 0; i < 30; i++) {
    dense.push(join(dir, `screen-${i + 1}.png`));
    await writeFile(dense.at(-1)!, await denseScreenshot({ seed: i + 1 }));
  }
  for (let i = 0; i < 16; i++) {
    noisy.push(join(dir, `video-${i + 1}.png`));
    await writeFile(noisy.at(-1)!, await denseScreenshot({ seed: 100 + i, noise: 1 }));
  }
  await prepare(dense, 'anthropic');
  await prepare(noisy, 'gemini', 'gemini-2.5-flash');
  await prepare(noisy, 'gemini', 'gemini-3-pro-preview');
  if (anthropicTurns > 0) await session('anthropic', 'claude-sonnet-4-6', anthropicCaps, anthropicTurns);
  if (geminiTurns > 0) await session('gemini', 'gemini-3-pro-preview', geminiCaps, geminiTurns);
} finally {
  await rm(dir, { recursive: true, force: true });
}
