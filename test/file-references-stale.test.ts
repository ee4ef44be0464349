// A provider reference that no longer resolves, across resumes: a session uploads two screenshots, then resumes
// against a store that has lost them (Anthropic answers 404 not_found_error "File not found: file_…", Gemini 403
// PERMISSION_DENIED "You do not have permission to access the File … or it may not exist"), through the real SDKs. Each refused reference is uploaded again and
// the turn goes on; the log's new media lines supersede the dead ones, so a second resume against the same store
// sends the new references and uploads nothing.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createModelClient } from '../packages/agent/src/entries/clients.js';
import { type HandlerTool, runAgent } from '../packages/agent/src/index.js';
import { JsonlSessionStore } from '../packages/agent/src/session/jsonl-session-store.js';
import { type ApiServer, type RequestCheck, type ScriptEntry, startApiServer } from './support/api-server.js';
import { denseScreenshot } from './support/dense-screenshot.js';
import type { StoredUpload } from './support/file-uploads.js';
import { anthropicCapsWith, geminiCapsWith } from './support/provider-caps.js';

const screenshot: HandlerTool = {
  definition: { name: 'screenshot', description: 'Takes a screenshot', parameters: { type: 'object' } },
  handler: async (args) => ({
    text: 'the screen now',
    attachments: [{ bytes: await denseScreenshot({ seed: Number(args.n) }), filename: 'screen.png' }],
  }),
};

const shots: ScriptEntry[] = [
  { toolCalls: [{ id: 'call_1', name: 'screenshot', arguments: { n: 1 } }] },
  { toolCalls: [{ id: 'call_2', name: 'screenshot', arguments: { n: 2 } }] },
  { text: 'Saw both.' },
];

/** The references a body names: Anthropic `source.file_id`, Gemini `fileData.fileUri`. */
function referencesIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(referencesIn);
  if (typeof value !== 'object' || value === null) return [];
  const record = value as Record<string, unknown>;
  const source = record.source as { type?: string; file_id?: string } | undefined;
  const fileData = record.fileData as { fileUri?: string } | undefined;
  const own = [
    ...(source?.type === 'file' && source.file_id ? [source.file_id] : []),
    ...(fileData?.fileUri ? [fileData.fileUri] : []),
  ];
  return [...own, ...Object.values(record).flatMap(referencesIn)];
}

/** Anthropic's answer for a deleted file: 404 not_found_error naming it (the caps' check answers 400). */
const anthropic404 =
  (uploads: StoredUpload[]): RequestCheck =>
  async (request) => {
    const refused = await anthropicCapsWith(uploads)(request);
    return refused?.message?.includes('File not found')
      ? { status: 404, type: 'not_found_error', message: refused.message }
      : refused;
  };

let server: ApiServer | undefined;
let dir: string | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

describe.each([
  { provider: 'anthropic' as const, model: 'claude-sonnet-4-6', caps: anthropic404, key: 'id' as const },
  { provider: 'gemini' as const, model: 'gemini-3-pro-preview', caps: geminiCapsWith, key: 'uri' as const },
])('$provider: references the store lost', ({ provider, model, caps, key }) => {
  it('are uploaded again with one retry each, the log supersedes them, and the next resume uploads nothing', async () => {
    dir = await mkdtemp(join(tmpdir(), 'glimpse-refs-lost-'));
    const store = () => new JsonlSessionStore(dir!);
    const client = (url: string) =>
      createModelClient({ provider, model, apiKey: 'k', baseUrl: url, maxRetries: 0, env: {}, fileReferences: true });
    const run = async (url: string, prompt: string, maxSteps: number) => {
      const session = await store().openSession('lost');
      try {
        return await runAgent({
          model: client(url),
          provider,
          modelId: model,
          tools: [screenshot],
          history: session.resumed?.messages ?? [],
          prompt,
          maxSteps,
          session,
        });
      } finally {
        await session.close();
      }
    };
    const first: StoredUpload[] = [];
    server = await startApiServer(shots, caps(first), { uploads: first });
    expect((await run(server.url, 'Two screenshots.', 3)).stopped).toBe('done');
    await server.close();
    expect(first).toHaveLength(2);

    const second: StoredUpload[] = [];
    server = await startApiServer([{ text: 'Still there.' }, { text: 'And again.' }], caps(second), {
      uploads: second,
    });
    expect((await run(server.url, 'Look again.', 1)).stopped).toBe('done');
    // One refused request per lost file, each followed by its upload, then the answer.
    expect(server.requests).toHaveLength(3);
    expect(second.map((upload) => upload.sha256)).toEqual(first.map((upload) => upload.sha256));
    expect(referencesIn(server.requests.at(-1)!.body)).toEqual(second.map((upload) => upload[key]));
    const media = (await store().readSession('lost')).media ?? [];
    expect(media.slice(-2).map((line) => line.reference?.[key])).toEqual(second.map((upload) => upload[key]));

    // Resumed once more against the store that has the new uploads: no refusal, no upload.
    expect((await run(server.url, 'Once more.', 1)).stopped).toBe('done');
    expect(server.requests).toHaveLength(4);
    expect(second).toHaveLength(2);
    expect(referencesIn(server.requests.at(-1)!.body)).toEqual(second.map((upload) => upload[key]));
  }, 120_000);
});
