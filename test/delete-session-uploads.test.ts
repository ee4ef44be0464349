// Deleting what a session uploaded: runAgent with file references uploads two screenshots through each live
// client's SDK (Anthropic beta.files, OpenAI files, Gemini's File API) to a local server that answers the upload and
// delete calls as the APIs do; deleteSessionUploads reads the references from the session log and deletes each one
// through the same SDKs. A second call finds them gone (404), a provider without a client is skipped, and a run that
// resumes the session afterwards uploads again and goes on.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { deleteSessionUploads, runAgent, type HandlerTool } from '../packages/agent/src/index.js';
import { createModelClient } from '../packages/agent/src/entries/clients.js';
import { JsonlSessionStore } from '../packages/agent/src/session/jsonl-session-store.js';
import { startApiServer, type ApiServer, type ScriptEntry } from './support/api-server.js';
import { denseScreenshot } from './support/dense-screenshot.js';
import type { StoredUpload } from './support/file-uploads.js';
import { anthropicCapsWith } from './support/provider-caps.js';

const screenshot: HandlerTool = {
  definition: { name: 'screenshot', description: 'Takes a screenshot', parameters: { type: 'object' } },
  handler: async (args) => ({
    attachments: [
      { bytes: await denseScreenshot({ seed: Number(args.n), width: 400, height: 300 }), filename: 'screen.png' },
    ],
  }),
};
const script = (from: number, turns: number): ScriptEntry[] => [
  ...Array.from({ length: turns }, (_, i) => ({
    toolCalls: [{ id: `call_${from + i}`, name: 'screenshot', arguments: { n: from + i } }],
  })),
  { text: 'Done.' },
];

let server: ApiServer | undefined;
let dir: string | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

describe.each([
  { provider: 'anthropic' as const, model: 'claude-sonnet-4-6', store: 'anthropic' as const },
  { provider: 'openai-responses' as const, model: 'gpt-5.5', store: 'openai' as const },
  { provider: 'gemini' as const, model: 'gemini-3-pro-preview', store: 'gemini' as const },
])('deleteSessionUploads, $provider', ({ provider, model, store }) => {
  it('deletes each upload the session log names through the SDK; again: gone; no client: skipped', async () => {
    dir = await mkdtemp(join(tmpdir(), 'glimpse-delete-uploads-'));
    const uploads: StoredUpload[] = [];
    server = await startApiServer(script(1, 2), anthropicCapsWith(uploads), { uploads });
    const client = createModelClient({
      provider,
      model,
      apiKey: 'test-key',
      baseUrl: server.url,
      maxRetries: 0,
      env: {},
      fileReferences: true,
    });
    const sessions = new JsonlSessionStore(dir);
    const session = await sessions.openSession('s');
    const run = await runAgent({
      model: client,
      provider,
      modelId: model,
      tools: [screenshot],
      prompt: 'Two screenshots.',
      maxSteps: 3,
      session,
    });
    await session.close();
    expect(run.stopped).toBe('done');
    expect(uploads.map((upload) => upload.api)).toEqual([store, store]);

    const logged = await sessions.readSession('s');
    expect(await deleteSessionUploads(logged, {})).toMatchObject({ deleted: [], skipped: [{}, {}] });
    expect(uploads.some((upload) => upload.deleted)).toBe(false);

    const first = await deleteSessionUploads(logged, { [store]: client });
    expect(first.failed).toEqual([]);
    expect(first.deleted.map((reference) => reference.id)).toEqual(uploads.map((upload) => upload.id));
    expect(uploads.every((upload) => upload.deleted)).toBe(true);
    const deletes = server.requests.length;
    const again = await deleteSessionUploads(logged, { [store]: client });
    expect([again.deleted, again.gone.map((reference) => reference.id)]).toEqual([[], uploads.map((u) => u.id)]);
    // The delete calls are not model requests: the server's request log holds only the API's turns.
    expect(server.requests.length).toBe(deletes);
  }, 60_000);
});

describe('after the uploads are deleted', () => {
  it('a resumed Anthropic run finds each reference gone, uploads the screenshots again and goes on', async () => {
    dir = await mkdtemp(join(tmpdir(), 'glimpse-delete-uploads-'));
    const uploads: StoredUpload[] = [];
    server = await startApiServer([...script(1, 2), { text: 'Still here.' }], anthropicCapsWith(uploads), { uploads });
    const client = createModelClient({
      provider: 'anthropic',
      model: 'claude-sonnet-4-6',
      apiKey: 'test-key',
      baseUrl: server.url,
      maxRetries: 0,
      env: {},
      fileReferences: true,
    });
    const sessions = new JsonlSessionStore(dir);
    let session = await sessions.openSession('s');
    await runAgent({ model: client, provider: 'anthropic', tools: [screenshot], prompt: 'Two.', maxSteps: 3, session });
    await session.close();
    const { deleted } = await deleteSessionUploads(await sessions.readSession('s'), { anthropic: client });
    expect(deleted).toHaveLength(2);

    session = await sessions.openSession('s');
    const resumed = await runAgent({
      model: client,
      provider: 'anthropic',
      tools: [screenshot],
      history: session.resumed?.messages ?? [],
      prompt: 'And now?',
      session,
    });
    await session.close();
    expect(resumed.stopped).toBe('done');
    expect(uploads.filter((upload) => !upload.deleted)).toHaveLength(2);
    expect(JSON.stringify(server.requests.at(-1)!.body)).toContain(uploads.at(-1)!.id);
  }, 60_000);
});
