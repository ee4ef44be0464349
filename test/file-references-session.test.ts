// Provider file references end to end: a session of 60 tool-result screenshots run through runAgent and the live
// clients' official SDKs, with `fileReferences: true`, against a local server that answers the SDKs' upload calls
// (test/support/file-uploads.ts) and enforces the API's caps, refusing a reference no upload has. Each screenshot
// must be uploaded once, every request must name every screenshot so far and stay under 1 MB, and a resumed
// session (a new store, client and run on the same JSONL log, its `media` lines read back) must upload nothing again.
import { PDFDocument } from 'pdf-lib';
import { afterEach, describe, expect, it } from 'vitest';
import { runAgent, type HandlerTool } from '../packages/agent/src/index.js';
import { sessionMediaReferences } from '../packages/agent/src/references/session-media-references.js';
import { startApiServer, type ApiServer } from './support/api-server.js';
import type { StoredUpload } from './support/file-uploads.js';
import { referencesIn, referencingClient } from './support/file-references.js';
import { anthropicCapsWith, geminiCapsWith } from './support/provider-caps.js';
import { screenshotTool, screenshotTurns } from './support/screenshot-tool.js';
import { jsonlPlace, mediaLines, removeSessionPlaces, runInSession } from './support/session-places.js';
import { assertStrictlyValid } from './support/strict-oracle.js';
import { findWireMedia } from './support/wire-media.js';

const TURNS = 60;
const screenshot = screenshotTool({ text: 'the screen now' });
const script = (from: number, turns: number) => screenshotTurns(from, turns, 'Looked at all of them.');

let server: ApiServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  await removeSessionPlaces();
});

describe.each([
  { provider: 'anthropic' as const, model: 'claude-sonnet-4-6', caps: anthropicCapsWith, key: 'id' as const },
  { provider: 'gemini' as const, model: 'gemini-3-pro-preview', caps: geminiCapsWith, key: 'uri' as const },
])('file references, $provider: 60 screenshots', ({ provider, model, caps, key }) => {
  it('uploads each screenshot once, names it in every later request (each under 1 MB), and a resumed session re-uploads nothing', async () => {
    const open = await jsonlPlace();
    const uploads: StoredUpload[] = [];
    server = await startApiServer(script(1, TURNS), caps(uploads), { uploads });
    // The session log keeps the references: one `media` line per upload (runAgent's default with a session).
    const warnings: string[] = [];
    const run = await runInSession(open, 'refs', {
      model: referencingClient(provider, model, server.url),
      provider,
      modelId: model,
      tools: [screenshot],
      prompt: 'Take sixty screenshots, one at a time.',
      maxSteps: TURNS + 1,
      onStep: ({ request }) => warnings.push(...request.serialized.warnings.map((warning) => warning.type)),
    });
    expect(run.stopped).toBe('done');
    expect(warnings).toEqual([]);
    expect(server.requests).toHaveLength(TURNS + 1);

    // Each screenshot uploaded once, with its own bytes, and each upload a strictly valid image.
    expect(uploads).toHaveLength(TURNS);
    expect(new Set(uploads.map((upload) => upload.sha256)).size).toBe(TURNS);
    for (const upload of uploads) assertStrictlyValid(upload.bytes, upload.mediaType, upload.id);

    // Every request names every screenshot so far by its upload, in order, and carries no base64 at all.
    const sizes = server.requests.map((request) => request.bytes);
    server.requests.forEach((request, turn) => {
      expect(referencesIn(request.body), `turn ${turn}`).toEqual(uploads.slice(0, turn).map((upload) => upload[key]));
      expect(findWireMedia(request.body), `turn ${turn}`).toEqual([]);
    });
    expect(Math.max(...sizes)).toBeLessThan(1_000_000);
    console.log(
      `${provider}: ${uploads.length} uploads, ${(uploads.reduce((sum, upload) => sum + upload.bytes.length, 0) / 1e6).toFixed(1)} MB in all; ` +
        `${provider} with references: request bytes per turn (KB): ${sizes.map((b) => (b / 1e3).toFixed(1)).join(' ')}`,
    );

    // The log holds one media line per upload, with the hash of the bytes uploaded and the provider's reference.
    const media = await mediaLines(open, 'refs');
    expect(media.map((line) => [line.sha256, line.reference?.id, line.reference?.uri])).toEqual(
      uploads.map((upload) => [upload.sha256, upload.id, upload.uri]),
    );

    // Resumed as a restart would: a new store object, client and run on the same log; one screenshot more, one
    // upload more.
    const before = server.requests.length;
    server.script.push(...script(TURNS + 1, 1));
    const resumed = await runInSession(open, 'refs', {
      model: referencingClient(provider, model, server.url),
      provider,
      modelId: model,
      tools: [screenshot],
      prompt: 'One more.',
      maxSteps: 2,
    });
    expect(resumed.stopped).toBe('done');
    expect(uploads).toHaveLength(TURNS + 1);
    const [first, second] = server.requests.slice(before);
    expect(referencesIn(first!.body)).toEqual(uploads.slice(0, TURNS).map((upload) => upload[key]));
    expect(referencesIn(second!.body)).toEqual(uploads.map((upload) => upload[key]));
    expect(first!.bytes).toBeLessThan(1_000_000);
  }, 600_000);
});

describe('file references through the other clients, and when the upload fails', () => {
  const run = (provider: 'openai-responses' | 'openai-chat' | 'anthropic', model: string, turns: number) =>
    runAgent({
      model: referencingClient(provider, model, server!.url),
      provider,
      modelId: model,
      tools: [screenshot],
      prompt: 'Take three screenshots.',
      maxSteps: turns + 1,
    });

  it('OpenAI Responses: each screenshot uploaded once to OpenAI Files and named by file_id', async () => {
    server = await startApiServer(script(1, 3));
    await run('openai-responses', 'gpt-5.5', 3);
    expect(server.uploads.map((upload) => [upload.api, upload.id])).toEqual([
      ['openai', 'file-1'],
      ['openai', 'file-2'],
      ['openai', 'file-3'],
    ]);
    const last = JSON.stringify(server.requests.at(-1)!.body);
    for (const upload of server.uploads) {
      assertStrictlyValid(upload.bytes, upload.mediaType, upload.id);
      expect(last).toContain(`"type":"input_image","file_id":"${upload.id}"`);
    }
    expect(findWireMedia(server.requests.at(-1)!.body)).toEqual([]);
  }, 120_000);

  it('OpenAI Chat: images stay inline (image_url takes no file_id), so nothing is uploaded', async () => {
    server = await startApiServer(script(1, 2));
    await run('openai-chat', 'gpt-5.5', 2);
    expect(server.uploads).toEqual([]);
    expect(findWireMedia(server.requests.at(-1)!.body)).toHaveLength(2);
  }, 120_000);

  it('Anthropic: the messages requests carry the Files beta header; a refused upload leaves each image inline with a media-reference-failed warning, and the turn goes on', async () => {
    server = await startApiServer(script(1, 2), undefined, {
      uploadCheck: () => ({ status: 500, message: 'the file store is down' }),
    });
    const warnings: { type: string; message: string }[] = [];
    const result = await runAgent({
      model: referencingClient('anthropic', 'claude-sonnet-4-6', server.url),
      provider: 'anthropic',
      modelId: 'claude-sonnet-4-6',
      tools: [screenshot],
      prompt: 'Take two screenshots.',
      maxSteps: 3,
      onStep: ({ request }) => warnings.push(...request.serialized.warnings),
    });
    expect(result.stopped).toBe('done');
    expect(server.uploads).toEqual([]);
    // One failed upload per screenshot for the whole run; each request after it says so and sends the image inline.
    expect(warnings.map((warning) => warning.type)).toEqual([
      'media-reference-failed',
      'media-reference-failed',
      'media-reference-failed',
    ]);
    expect(warnings[0]!.message).toMatch(
      /^the upload of this image\/png to anthropic's file store failed \(Anthropic answered 500: .*the file store is down.*\): it is sent inline$/,
    );
    expect(findWireMedia(server.requests.at(-1)!.body)).toHaveLength(2);
    for (const request of server.requests)
      expect(String(request.headers['anthropic-beta'])).toContain('files-api-2025-04-14');
  }, 120_000);

  it('Gemini: a resumed session whose uploads expire within the hour uploads them again, and names the new ones', async () => {
    server = await startApiServer(script(1, 2));
    const lines: unknown[] = [];
    const references = () => sessionMediaReferences({ lines: [...lines], append: (line) => void lines.push(line) });
    const gemini = () => referencingClient('gemini', 'gemini-3-pro-preview', server!.url);
    const first = await runAgent({
      model: gemini(),
      provider: 'gemini',
      modelId: 'gemini-3-pro-preview',
      tools: [screenshot],
      prompt: 'Take two screenshots.',
      maxSteps: 3,
      references: references(),
    });
    expect(server.uploads).toHaveLength(2);
    // 47.5 hours later: each file has half an hour left, too little for a turn and its retries.
    for (const line of lines as { reference: { expiresAt: string } }[])
      line.reference.expiresAt = new Date(Date.now() + 30 * 60 * 1000).toISOString();
    const before = server.requests.length;
    await runAgent({
      model: gemini(),
      provider: 'gemini',
      modelId: 'gemini-3-pro-preview',
      tools: [screenshot],
      history: first.messages,
      prompt: 'Look again.',
      maxSteps: 1,
      references: references(),
    });
    expect(server.uploads).toHaveLength(4);
    expect(server.uploads[2]!.sha256).toBe(server.uploads[0]!.sha256);
    expect(server.uploads[3]!.sha256).toBe(server.uploads[1]!.sha256);
    expect(referencesIn(server.requests[before]!.body)).toEqual([server.uploads[2]!.uri, server.uploads[3]!.uri]);
  }, 120_000);

  it.each([
    ['anthropic', 'claude-sonnet-4-6', '"type":"document","source":{"type":"file","file_id":"file_1"}'],
    ['openai-chat', 'gpt-5.5', '"type":"file","file":{"file_id":"file-1"}'],
    ['openai-responses', 'gpt-5.5', '"type":"input_file","file_id":"file-1"'],
    ['gemini', 'gemini-3-pro-preview', '"fileData":{"mimeType":"application/pdf","fileUri":"'],
  ] as const)(
    '%s: a PDF a tool returns is uploaded once and named in the next request',
    async (provider, model, wire) => {
      const document = await PDFDocument.create();
      for (let i = 0; i < 3; i++) document.addPage([300, 400]).drawText(`page ${i + 1}`);
      const bytes = await document.save();
      const report: HandlerTool = {
        definition: { name: 'report', description: 'The report', parameters: { type: 'object' } },
        handler: () => ({ attachments: [{ bytes, filename: 'report.pdf' }] }),
      };
      server = await startApiServer([
        { toolCalls: [{ id: 'call_1', name: 'report', arguments: {} }] },
        { text: 'Read.' },
      ]);
      await runAgent({
        model: referencingClient(provider, model, server.url),
        provider,
        modelId: model,
        tools: [report],
        prompt: 'Read the report.',
        maxSteps: 2,
      });
      expect(server.uploads.map((upload) => [upload.mediaType, upload.filename])).toEqual([
        ['application/pdf', 'report.pdf'],
      ]);
      assertStrictlyValid(server.uploads[0]!.bytes, 'application/pdf', 'upload');
      expect(JSON.stringify(server.requests[1]!.body)).toContain(wire);
      expect(findWireMedia(server.requests[1]!.body)).toEqual([]);
    },
    120_000,
  );

  it('Anthropic: a resumed session whose file the store no longer holds (a 400 naming its id) uploads it again and the turn goes on', async () => {
    const open = await jsonlPlace();
    const run = (url: string, prompt: string, maxSteps: number) =>
      runInSession(open, 'stale', {
        model: referencingClient('anthropic', 'claude-sonnet-4-6', url),
        provider: 'anthropic',
        tools: [screenshot],
        prompt,
        maxSteps,
      });
    const first: StoredUpload[] = [];
    server = await startApiServer(script(1, 2), anthropicCapsWith(first), { uploads: first });
    await run(server.url, 'Two screenshots.', 3);
    await server.close();
    expect(first).toHaveLength(2);

    // Another workspace (or the files deleted): a store without them, refusing their ids as the API does.
    const second: StoredUpload[] = [];
    server = await startApiServer([{ text: 'Still there.' }], anthropicCapsWith(second), { uploads: second });
    const resumed = await run(server.url, 'Look again.', 1);
    expect(resumed.stopped).toBe('done');
    // One refused request per stale file, each followed by its upload; then the answer.
    expect(server.requests.map((request) => request.bytes < 1_000_000)).toEqual([true, true, true]);
    expect(second.map((upload) => upload.sha256)).toEqual(first.map((upload) => upload.sha256));
    expect(referencesIn(server.requests.at(-1)!.body)).toEqual(second.map((upload) => upload.id));
    // The log says each stale reference is gone (expiring now), then names its new upload last: a later resume uses it.
    const media = await mediaLines(open, 'stale');
    expect(
      media.slice(-4).map(({ sha256, reference }) => [sha256, reference?.id, reference?.expiresAt !== undefined]),
    ).toEqual(
      first.flatMap((upload, i) => [
        [upload.sha256, upload.id, true],
        [upload.sha256, second[i]!.id, false],
      ]),
    );
  }, 120_000);
});
