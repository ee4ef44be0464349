// A provider reference that no longer resolves, across resumes: a session uploads two screenshots, then resumes
// against a store that has lost them (Anthropic answers 404 not_found_error "File not found: file_…", Gemini 403
// PERMISSION_DENIED "You do not have permission to access the File … or it may not exist"), through the real SDKs.
// Each refused reference is written to the log as gone (the same reference, expiring now) and uploaded again, and the
// turn goes on; the log's new media lines supersede the dead ones, so a second resume against the same store sends
// the new references and uploads nothing. When the upload fails too (the medium goes inline), the log still says the
// reference is gone: the next resume uploads once and never sends the dead id.
import { afterEach, describe, expect, it } from 'vitest';
import { type ApiServer, type RequestCheck, startApiServer } from './support/api-server.js';
import type { StoredUpload } from './support/file-uploads.js';
import { expiredLine, referencesIn, referencingClient } from './support/file-references.js';
import { anthropicCapsWith, geminiCapsWith } from './support/provider-caps.js';
import { screenshotTool, screenshotTurns } from './support/screenshot-tool.js';
import { jsonlPlace, mediaLines, type OpenStore, removeSessionPlaces, runInSession } from './support/session-places.js';

const screenshot = screenshotTool({ text: 'the screen now' });

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
afterEach(async () => {
  await server?.close();
  server = undefined;
  await removeSessionPlaces();
});

describe.each([
  { provider: 'anthropic' as const, model: 'claude-sonnet-4-6', caps: anthropic404, key: 'id' as const },
  { provider: 'gemini' as const, model: 'gemini-3-pro-preview', caps: geminiCapsWith, key: 'uri' as const },
])('$provider: references the store lost', ({ provider, model, caps, key }) => {
  const run = (open: OpenStore, url: string, prompt: string, maxSteps: number) =>
    runInSession(open, 'lost', {
      model: referencingClient(provider, model, url),
      provider,
      modelId: model,
      tools: [screenshot],
      prompt,
      maxSteps,
    });

  it('are written gone and uploaded again with one retry each, the log supersedes them, and the next resume uploads nothing', async () => {
    const open = await jsonlPlace();
    const first: StoredUpload[] = [];
    server = await startApiServer(screenshotTurns(1, 2, 'Saw both.'), caps(first), { uploads: first });
    expect((await run(open, server.url, 'Two screenshots.', 3)).stopped).toBe('done');
    await server.close();
    expect(first).toHaveLength(2);

    const second: StoredUpload[] = [];
    server = await startApiServer([{ text: 'Still there.' }, { text: 'And again.' }], caps(second), {
      uploads: second,
    });
    const before = Date.now();
    expect((await run(open, server.url, 'Look again.', 1)).stopped).toBe('done');
    // One refused request per lost file, each followed by its upload, then the answer.
    expect(server.requests).toHaveLength(3);
    expect(second.map((upload) => upload.sha256)).toEqual(first.map((upload) => upload.sha256));
    expect(referencesIn(server.requests.at(-1)!.body)).toEqual(second.map((upload) => upload[key]));
    // Each lost reference, then its new upload: the dead one's line expires at the refusal.
    const media = await mediaLines(open, 'lost');
    expect(media.slice(-4).map(({ sha256, reference }) => [sha256, reference?.[key]])).toEqual(
      first.flatMap((upload, i) => [
        [upload.sha256, upload[key]],
        [upload.sha256, second[i]![key]],
      ]),
    );
    for (const line of [media.at(-4)!, media.at(-2)!]) {
      const expiresAt = Date.parse(line.reference!.expiresAt!);
      expect(expiresAt).toBeGreaterThanOrEqual(before);
      expect(expiresAt).toBeLessThanOrEqual(Date.now());
    }

    // Resumed once more against the store that has the new uploads: no refusal, no upload.
    expect((await run(open, server.url, 'Once more.', 1)).stopped).toBe('done');
    expect(server.requests).toHaveLength(4);
    expect(second).toHaveLength(2);
    expect(referencesIn(server.requests.at(-1)!.body)).toEqual(second.map((upload) => upload[key]));
  }, 120_000);

  it('when the upload fails too, the log still says they are gone: the next resume uploads each once and never sends the dead ids', async () => {
    const open = await jsonlPlace();
    const uploads: StoredUpload[] = [];
    let storeDown = false;
    server = await startApiServer(
      [...screenshotTurns(1, 2, 'Saw both.'), { text: 'Inline then.' }, { text: 'By reference again.' }],
      caps(uploads),
      { uploads, uploadCheck: () => (storeDown ? { status: 500, message: 'the file store is down' } : undefined) },
    );
    expect((await run(open, server.url, 'Two screenshots.', 3)).stopped).toBe('done');
    const lost = uploads.map((upload) => ({ ...upload }));
    expect(lost).toHaveLength(2);

    // The store loses both files and refuses new uploads: each refused reference goes inline for this run.
    for (const upload of uploads) upload.deleted = true;
    storeDown = true;
    let requests = server.requests.length;
    const before = Date.now();
    expect((await run(open, server.url, 'Look again.', 1)).stopped).toBe('done');
    expect(server.requests.length - requests).toBe(3);
    expect(referencesIn(server.requests.at(-1)!.body)).toEqual([]);
    expect(uploads).toHaveLength(2);
    // The log's last word on each medium: its reference, expiring at the refusal.
    const media = await mediaLines(open, 'lost');
    expect(media.slice(-2).map(({ sha256, reference }) => ({ sha256, reference }))).toEqual(
      lost.map((upload) => expiredLine(upload, expect.any(String))),
    );
    for (const line of media.slice(-2)) {
      const expiresAt = Date.parse(line.reference!.expiresAt!);
      expect(expiresAt).toBeGreaterThanOrEqual(before);
      expect(expiresAt).toBeLessThanOrEqual(Date.now());
    }

    // The store is back: one request, no refusal, each medium uploaded once and named by its new reference only.
    storeDown = false;
    requests = server.requests.length;
    expect((await run(open, server.url, 'And now?', 1)).stopped).toBe('done');
    expect(server.requests.length - requests).toBe(1);
    const fresh = uploads.slice(2);
    expect(fresh.map((upload) => upload.sha256)).toEqual(lost.map((upload) => upload.sha256));
    expect(referencesIn(server.requests.at(-1)!.body)).toEqual(fresh.map((upload) => upload[key]));
    const body = JSON.stringify(server.requests.at(-1)!.body);
    for (const upload of lost) expect(body).not.toContain(JSON.stringify(upload[key]));
  }, 120_000);
});
