// Runs in a project that installed the packed tarballs: the README's main job and one use of every entry point.
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { process as fit } from '@glimpse/media';
import { createFileTools, serialize, toolResultFrom } from '@glimpse/agent';
import { loadSession, SessionWriter } from '@glimpse/agent/node';
import { createGlimpseMcpServer } from '@glimpse/agent/mcp';
import { fitMediaMiddleware } from '@glimpse/agent/ai-sdk';
import { fitPiContent } from '@glimpse/agent/pi';
import { createModelClient, isModelClientError } from '@glimpse/agent/clients';
import { bedrockRequestFromJson, requestJson, serializeBedrock } from '@glimpse/agent/providers';
import { estimateImageTokens } from '@glimpse/agent/compaction';
import { isSessionError, SESSION_FORMAT_NAME } from '@glimpse/agent/session';
import { MemoryFileSystem } from '@glimpse/agent/fs';
import { VIEW_FILE_TOOL_DEFINITION, viewFile } from '@glimpse/agent/tools';
import { probe } from '@glimpse/media';
import { HEIF_DECODER_NAME } from '@glimpse/heif'; // importing it registers the HEIC decoder with the core

const photo = new Uint8Array(await readFile('photo-exif6.jpg')); // 4000×3000 stored sideways (EXIF 6)
const fitted = await fit(photo, { provider: 'anthropic' });
assert.deepEqual([fitted.mediaType, fitted.width, fitted.height], ['image/jpeg', 1176, 1568]);
assert.deepEqual(fitted.steps, ['oriented', 'resized']);

// The optional HEIC package: a grid HEIC turned by irot comes out an upright JPEG.
const fromHeic = await fit(new Uint8Array(await readFile('grid.heic')), { provider: 'anthropic' });
assert.deepEqual([fromHeic.mediaType, fromHeic.width, fromHeic.height], ['image/jpeg', 100, 160]);
assert.match(HEIF_DECODER_NAME, /libheif/);

const result = await toolResultFrom({
  toolCallId: 'call_1',
  toolName: 'take_photo',
  output: { text: 'The photo:', attachments: [{ bytes: photo }] },
  provider: 'anthropic',
  model: 'claude-sonnet-4-5',
});
const messages = [
  { role: 'user', parts: [{ type: 'text', text: 'Take a photo of the whiteboard.' }] },
  { role: 'assistant', text: '', toolCalls: [{ id: 'call_1', name: 'take_photo', arguments: {} }] },
  result,
];
const { body } = serialize('anthropic', { messages, model: 'claude-sonnet-4-5' });
const toolResult = body.messages.at(-1).content.find((block) => block.type === 'tool_result');
assert.equal(toolResult.content.find((block) => block.type === 'image').source.media_type, 'image/jpeg');

// In Node the file tools read the local disk by default.
const files = createFileTools({ route: { provider: 'openai-responses', model: 'gpt-5' } });
const viewed = await files.viewFile.execute({ path: 'photo-exif6.jpg' });
assert.deepEqual([viewed.isError, viewed.parts.map((part) => part.type)], [false, ['text', 'image']]);

// The subpaths beside the core: a serializer and the SDK hand-over, a token rule, the log's format, a file system
// of one's own, and view_file on its own.
const bedrock = bedrockRequestFromJson(
  JSON.parse(requestJson(serializeBedrock({ messages, model: 'amazon.nova-pro-v1:0' }).body)),
);
const bedrockImage = bedrock.messages.at(-1).content[0].toolResult.content.find((block) => block.image);
assert.ok(bedrockImage.image.source.bytes instanceof Uint8Array);
assert.equal(estimateImageTokens({ width: 1568, height: 1176 }, { provider: 'anthropic' }), 1564);
const inMemory = {
  fileSystem: new MemoryFileSystem({ files: { '/photo.jpg': photo } }),
  capabilities: { imageInput: true, pdfInput: true, mediaInToolResults: true, preset: 'openai' },
};
const seen = await viewFile({ path: '/photo.jpg' }, inMemory);
assert.deepEqual([VIEW_FILE_TOOL_DEFINITION.name, seen.isError, seen.processed?.height], ['view_file', false, 2048]);

const log = await SessionWriter.open('session.jsonl', { app: { name: 'consumer' } });
for (const message of messages) await log.append(message);
await log.close();
assert.equal((await loadSession('session.jsonl')).entries.length, 3);
const corrupt = await writeFile('corrupt.jsonl', '{"type":"header"}\n').then(() =>
  loadSession('corrupt.jsonl').catch((error) => error),
);
assert.deepEqual(
  [isSessionError(corrupt), corrupt.code, SESSION_FORMAT_NAME],
  [true, 'E_SESSION_CORRUPT', 'glimpse-session'],
);
assert.equal(typeof createGlimpseMcpServer({ root: '.' }).connect, 'function');

// The adapter subpaths, with none of their optional peers (the AI SDK, pi, the provider SDKs) installed.
const middleware = fitMediaMiddleware();
const params = {
  prompt: [{ role: 'user', content: [{ type: 'file', data: { type: 'data', data: photo }, mediaType: 'image/jpeg' }] }],
};
const transformed = await middleware.transformParams({
  type: 'generate',
  params,
  model: { specificationVersion: 'v4', provider: 'anthropic.messages', modelId: 'claude-sonnet-5-5' },
});
const file = transformed.prompt[0].content.find((item) => item.type === 'file');
const fileBytes =
  typeof file.data.data === 'string' ? new Uint8Array(Buffer.from(file.data.data, 'base64')) : file.data.data;
const fileInfo = await probe(fileBytes);
assert.deepEqual([file.mediaType, fileInfo.width, fileInfo.height], ['image/jpeg', 1176, 1568]);

const piContent = await fitPiContent(
  [{ type: 'image', mimeType: 'image/jpeg', data: Buffer.from(photo).toString('base64') }],
  { preset: 'openai' },
);
const piImage = piContent.find((item) => item.type === 'image');
const piInfo = await probe(new Uint8Array(Buffer.from(piImage.data, 'base64')));
assert.deepEqual([piImage.mimeType, Math.max(piInfo.width, piInfo.height) <= 2048], ['image/jpeg', true]);

// A live client whose SDK is not installed says which package to install, when it is used (not on import).
const client = createModelClient({ provider: 'ollama', model: 'llava', baseUrl: 'http://127.0.0.1:9' });
const missing = await client
  .next({ messages, tools: [], serialized: serialize('ollama', { messages, model: 'llava' }) })
  .catch((error) => error);
assert.ok(isModelClientError(missing), String(missing));
assert.deepEqual([missing.code, /npm install ollama/.test(missing.message)], ['E_SDK_MISSING', true]);
console.log('node: ok');
