// Gemini answers a file it no longer holds (deleted, expired, never made) with 403 PERMISSION_DENIED "You do not
// have permission to access the File abc or it may not exist", not 404, on files.delete and on a generateContent
// naming its fileUri. Through the real SDK: deleteSessionUploads counts such a file `gone`, and runAgent uploads it
// again; a 403 for a bad key (it names no file) stays a failure, and a reference past its expiry is not asked for.
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { deleteSessionUploads, runAgent } from '../packages/agent/src/index.js';
import type { FileReference } from '../packages/agent/src/types.js';
import { type ApiServer, startApiServer } from './support/api-server.js';
import { denseScreenshot } from './support/dense-screenshot.js';
import type { StoredUpload } from './support/file-uploads.js';
import { referencingClient } from './support/file-references.js';
import { geminiCapsWith } from './support/provider-caps.js';
import { screenshotTool, screenshotTurns } from './support/screenshot-tool.js';

const model = 'gemini-3-pro-preview';
const gemini = (url: string) => referencingClient('gemini', model, url);
const PAST = '2020-01-01T00:00:00Z';
const FUTURE = new Date(Date.now() + 3600_000).toISOString();
/** Google's 403 for a key without access to the API: PERMISSION_DENIED too, but naming no file. */
const BAD_KEY =
  "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.";

let server: ApiServer | undefined;
let raw: Server | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  await new Promise((resolve) => (raw ? raw.close(resolve) : resolve(undefined)));
  raw = undefined;
});

/** A server answering every request 403 PERMISSION_DENIED with `message`; counts what it was asked. */
async function forbidding(message: (path: string) => string): Promise<{ url: string; hits: string[] }> {
  const hits: string[] = [];
  raw = createServer((request, response) => {
    hits.push(`${request.method} ${request.url}`);
    response
      .writeHead(403, { 'content-type': 'application/json' })
      .end(JSON.stringify({ error: { code: 403, message: message(request.url ?? ''), status: 'PERMISSION_DENIED' } }));
  });
  await new Promise<void>((resolve) => raw!.listen(0, '127.0.0.1', resolve));
  const address = raw.address() as { port: number };
  return { url: `http://127.0.0.1:${address.port}`, hits };
}

const reference = (url: string, name: string, expiresAt: string): FileReference => ({
  provider: 'gemini',
  id: `files/${name}`,
  uri: `${url}/v1beta/files/${name}`,
  mimeType: 'image/png',
  expiresAt,
});

describe('deleteSessionUploads, Gemini', () => {
  it('a 403 naming the file is gone; one naming no file (a bad key) fails with E_AUTH', async () => {
    const { url, hits } = await forbidding((path) =>
      path.includes('lost')
        ? `You do not have permission to access the File ${path.split('/').pop()?.split('?')[0]} or it may not exist.`
        : BAD_KEY,
    );
    const lost = reference(url, 'lost1', FUTURE);
    const kept = reference(url, 'kept1', FUTURE);
    const result = await deleteSessionUploads({ media: [{ reference: lost }, { reference: kept }] } as never, {
      gemini: gemini(url),
    });
    expect(result.gone).toEqual([lost]);
    expect(result.deleted).toEqual([]);
    expect(result.failed.map((failure) => [failure.reference, Reflect.get(failure.error as object, 'code')])).toEqual([
      [kept, 'E_AUTH'],
    ]);
    expect(hits).toEqual(['DELETE /v1beta/files/lost1', 'DELETE /v1beta/files/kept1']);
  });

  it('a reference past its expiresAt is gone without asking the store', async () => {
    const { url, hits } = await forbidding(() => BAD_KEY);
    const expired = reference(url, 'old1', PAST);
    const result = await deleteSessionUploads({ media: [{ reference: expired }] } as never, { gemini: gemini(url) });
    expect(result).toEqual({ deleted: [], gone: [expired], skipped: [], failed: [] });
    expect(hits).toEqual([]);
  });

  it('through the fake store: a file that expired early answers 403 and counts as gone, the other is deleted', async () => {
    const uploads: StoredUpload[] = [];
    server = await startApiServer([], undefined, { uploads });
    const client = gemini(server.url);
    const references: FileReference[] = [];
    for (const seed of [1, 2]) {
      const bytes = await denseScreenshot({ seed, width: 64, height: 48 });
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      references.push(await client.uploadMedia!({ bytes, mediaType: 'image/png', sha256, filename: `${seed}.png` }));
    }
    uploads[0]!.expiresAt = PAST; // the store lost it before the expiry it announced
    const result = await deleteSessionUploads({ media: references.map((r) => ({ reference: r })) } as never, {
      gemini: client,
    });
    expect(result).toEqual({ deleted: [references[1]], gone: [references[0]], skipped: [], failed: [] });
    expect(uploads.map((upload) => upload.deleted === true)).toEqual([false, true]);
  });
});

describe('runAgent, Gemini', () => {
  const screenshot = (onShot: (n: number) => void) => screenshotTool({ onShot });
  const script = screenshotTurns(1, 2, 'Saw both.');

  it('a file the store let expire mid-run is refused with 403, uploaded again once, and the turn goes on', async () => {
    const uploads: StoredUpload[] = [];
    server = await startApiServer(script, geminiCapsWith(uploads), { uploads });
    const shots = screenshot((n) => {
      if (n === 2) uploads[0]!.expiresAt = PAST;
    });
    const run = await runAgent({
      model: gemini(server.url),
      provider: 'gemini',
      modelId: model,
      tools: [shots],
      prompt: 'Two.',
      maxSteps: 3,
    });
    expect(run.stopped).toBe('done');
    // Request 3 named the lost file and was refused; the same bytes went up again and request 4 names the new upload.
    expect(server.requests).toHaveLength(4);
    expect(uploads).toHaveLength(3);
    expect(uploads[2]!.sha256).toBe(uploads[0]!.sha256);
    const sent = JSON.stringify(server.requests.at(-1)!.body);
    expect([sent.includes(uploads[0]!.uri!), sent.includes(uploads[1]!.uri!), sent.includes(uploads[2]!.uri!)]).toEqual(
      [false, true, true],
    );
  }, 60_000);

  it('a 403 that names no file (a bad key) fails the run with E_AUTH, with nothing uploaded again', async () => {
    const uploads: StoredUpload[] = [];
    let refuse = false;
    server = await startApiServer(script, () => (refuse ? { status: 403, message: BAD_KEY } : undefined), {
      uploads,
    });
    const shots = screenshot((n) => {
      if (n === 2) refuse = true;
    });
    await expect(
      runAgent({
        model: gemini(server.url),
        provider: 'gemini',
        modelId: model,
        tools: [shots],
        prompt: 'Two.',
        maxSteps: 3,
      }),
    ).rejects.toMatchObject({ code: 'E_AUTH' });
    expect(server.requests).toHaveLength(3);
    expect(uploads).toHaveLength(2);
  }, 60_000);
});
