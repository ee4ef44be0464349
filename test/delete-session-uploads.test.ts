// Deleting what a session uploaded: runAgent with file references uploads two screenshots through each live
// client's SDK (Anthropic beta.files, OpenAI files, Gemini's File API) to a local server that answers the upload and
// delete calls as the APIs do; deleteSessionUploads reads the references from the session log and deletes each one
// through the same SDKs. A second call finds them gone (404), a provider without a client is skipped, and a run that
// resumes the session afterwards uploads again and goes on.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { deleteSessionUploads, runAgent } from '../packages/agent/src/index.js';
import { JsonlSessionStore } from '../packages/agent/src/session/jsonl-session-store.js';
import { openPGliteClient } from '../packages/agent/src/session/pglite-client.js';
import { PostgresSessionStore } from '../packages/agent/src/session/postgres-session-store.js';
import { startApiServer, type ApiServer } from './support/api-server.js';
import type { StoredUpload } from './support/file-uploads.js';
import { expiredLine, referencingClient } from './support/file-references.js';
import { anthropicCapsWith, geminiCapsWith } from './support/provider-caps.js';
import { runCli } from './support/run-cli.js';
import { screenshotTool, screenshotTurns as script } from './support/screenshot-tool.js';
import { mediaLines, removeSessionPlaces, runInSession, SESSION_PLACES } from './support/session-places.js';

const screenshot = screenshotTool({ width: 400, height: 300 });

let server: ApiServer | undefined;
let dir: string | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  await server?.close();
  server = undefined;
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  dir = undefined;
  await removeSessionPlaces();
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
    const client = referencingClient(provider, model, server.url);
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

/** Each store on one place (not the shared Postgres server: these tests use one session id), opened anew per step. */
const STORES = SESSION_PLACES.filter(([name]) => name !== 'Postgres server');

describe.each(
  STORES.flatMap(([store, place]) =>
    [
      { provider: 'anthropic' as const, model: 'claude-sonnet-4-6', caps: anthropicCapsWith },
      { provider: 'gemini' as const, model: 'gemini-3-pro-preview', caps: geminiCapsWith },
    ].map((route) => ({ store, place, ...route })),
  ),
)('after the uploads are deleted through an open session, $store, $provider', ({ place, provider, model, caps }) => {
  it('the log says each is gone: a resume uploads afresh on its first request, which names no deleted id', async () => {
    const open = await place();
    const uploads: StoredUpload[] = [];
    server = await startApiServer([...script(1, 2), { text: 'Still here.' }], caps(uploads), { uploads });
    const client = referencingClient(provider, model, server.url);
    const run = (prompt: string, maxSteps: number) =>
      runInSession(open, 's', { model: client, provider, modelId: model, tools: [screenshot], prompt, maxSteps });
    expect((await run('Two.', 3)).stopped).toBe('done');
    const first = uploads.map((upload) => ({ ...upload }));
    expect(first).toHaveLength(2);

    // Deleted through an open session; a second pass finds them gone and writes no second line.
    const at = new Date();
    for (const expected of ['deleted', 'gone'] as const) {
      const store = await open();
      const session = await store.openSession('s');
      const result = await deleteSessionUploads(session, { [first[0]!.api]: client }, { now: () => at });
      await session.close();
      await store.close();
      expect(result.failed).toEqual([]);
      expect(result[expected].map((reference) => reference.id)).toEqual(first.map((upload) => upload.id));
    }
    expect(uploads.every((upload) => upload.deleted)).toBe(true);
    const logged = await mediaLines(open, 's');
    // One line per deleted reference, the same reference expiring at the deletion, after the uploads' lines.
    expect(logged.slice(-3).map(({ sha256, reference }) => ({ sha256, reference }))).toEqual([
      { sha256: first[1]!.sha256, reference: expect.objectContaining({ id: first[1]!.id }) },
      ...first.map((upload) => expiredLine(upload, at.toISOString())),
    ]);

    const requests = server.requests.length;
    expect((await run('And now?', 1)).stopped).toBe('done');
    // One request, no refusal: both screenshots uploaded again before it, and named by their new references.
    expect(server.requests.length).toBe(requests + 1);
    const fresh = uploads.slice(2);
    expect(fresh.map((upload) => upload.sha256)).toEqual(first.map((upload) => upload.sha256));
    const body = JSON.stringify(server.requests.at(-1)!.body);
    for (const upload of fresh) expect(body).toContain(JSON.stringify(upload.uri ?? upload.id));
    for (const upload of first) {
      expect(body).not.toContain(JSON.stringify(upload.uri ?? upload.id));
      expect(body).not.toContain(JSON.stringify(upload.id));
    }
  }, 60_000);
});

describe('glimpse session LOCATION --delete-uploads', () => {
  it('deletes the uploads of all three stores one log names, with the keys and base URLs of the environment', async () => {
    dir = await mkdtemp(join(tmpdir(), 'glimpse-delete-uploads-cli-'));
    const uploads: StoredUpload[] = [];
    server = await startApiServer([...script(1, 1), ...script(2, 1), ...script(3, 1)], anthropicCapsWith(uploads), {
      uploads,
    });
    const sessions = new JsonlSessionStore(dir);
    // One log, three providers in turn: each run uploads its screenshot to its own store.
    for (const [provider, model] of [
      ['anthropic', 'claude-sonnet-4-6'],
      ['openai-responses', 'gpt-5.5'],
      ['gemini', 'gemini-3-pro-preview'],
    ] as const) {
      const session = await sessions.openSession('s');
      await runAgent({
        model: referencingClient(provider, model, server.url),
        provider,
        modelId: model,
        tools: [screenshot],
        history: session.resumed?.messages ?? [],
        prompt: 'One.',
        maxSteps: 2,
        session,
      });
      await session.close();
    }
    // Each later provider also uploads the earlier screenshots its history carries.
    expect(uploads.map((upload) => upload.api)).toEqual([
      'anthropic',
      'openai',
      'openai',
      'gemini',
      'gemini',
      'gemini',
    ]);
    const [file] = await readdir(dir);
    for (const [name, value] of [
      ['ANTHROPIC_API_KEY', 'k'],
      ['OPENAI_API_KEY', 'k'],
      ['GEMINI_API_KEY', 'k'],
      ['ANTHROPIC_BASE_URL', server.url],
      ['OPENAI_BASE_URL', server.url],
      ['GOOGLE_GEMINI_BASE_URL', server.url],
    ] as const)
      vi.stubEnv(name, value);
    const cli = async () => {
      const { code, out, err } = await runCli('session', join(dir!, file!), '--delete-uploads');
      return { code, out: JSON.parse(out), err };
    };
    const named = uploads.map((upload) => ({ provider: upload.api, id: upload.id }));
    const first = await cli();
    expect(first.err).toBe('');
    expect(first).toMatchObject({ code: 0, out: { deleted: named, gone: [], skipped: [], failed: [] } });
    expect(uploads.every((upload) => upload.deleted)).toBe(true);
    // Each newest reference per medium and provider is written to the log as expired; the second pass adds none.
    const expired = async () =>
      ((await sessions.readSession('s')).media ?? []).flatMap(({ reference }) =>
        reference?.expiresAt !== undefined && Date.parse(reference.expiresAt) <= Date.now()
          ? [{ provider: reference.provider, id: reference.id }]
          : [],
      );
    expect(await expired()).toEqual(named);
    const second = await cli();
    expect(await expired()).toEqual(named);
    expect(second).toMatchObject({ code: 0, out: { deleted: [], gone: named, failed: [] } });
    // Without a key the delete fails, named, and the exit says so.
    vi.stubEnv('OPENAI_API_KEY', '');
    vi.stubEnv('OPENAI_BASE_URL', '');
    const keyless = await cli();
    expect(keyless.code).toBe(1);
    expect(keyless.out.failed).toMatchObject(
      uploads
        .filter((upload) => upload.api === 'openai')
        .map((upload) => ({ provider: 'openai', id: upload.id, error: { code: 'E_AUTH' } })),
    );
  }, 60_000);
});

describe('glimpse session pglite:DIR#ID --delete-uploads', () => {
  it('writes the deleted upload to the database log: a resume uploads afresh with one request', async () => {
    dir = await mkdtemp(join(tmpdir(), 'glimpse-delete-uploads-cli-pglite-'));
    const uploads: StoredUpload[] = [];
    server = await startApiServer([...script(1, 1), { text: 'Again.' }], anthropicCapsWith(uploads), { uploads });
    const client = referencingClient('anthropic', 'claude-sonnet-4-6', server.url);
    const open = async () => PostgresSessionStore.open(await openPGliteClient(dir!), `pglite:${dir}`);
    const run = (prompt: string, maxSteps: number) =>
      runInSession(open, 's', { model: client, provider: 'anthropic', tools: [screenshot], prompt, maxSteps });
    await run('One.', 2);
    expect(uploads).toHaveLength(1);
    vi.stubEnv('ANTHROPIC_API_KEY', 'k');
    vi.stubEnv('ANTHROPIC_BASE_URL', server.url);
    const { code, out, err } = await runCli('session', `pglite:${dir}#s`, '--delete-uploads');
    expect([code, err]).toEqual([0, '']);
    expect(JSON.parse(out)).toMatchObject({ deleted: [{ provider: 'anthropic', id: 'file_1' }] });
    const requests = server.requests.length;
    expect((await run('Again?', 1)).stopped).toBe('done');
    expect(server.requests.length).toBe(requests + 1);
    expect(uploads.map((upload) => [upload.id, upload.deleted ?? false])).toEqual([
      ['file_1', true],
      ['file_2', false],
    ]);
    const body = JSON.stringify(server.requests.at(-1)!.body);
    expect([body.includes('"file_2"'), body.includes('"file_1"')]).toEqual([true, false]);
  }, 60_000);
});
