// Runs in a project that installed the packed tarballs: the README's main job and one use of every entry point.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { process as fit } from '@glimpse/media';
import { createFileTools, serialize, toolResultFrom } from '@glimpse/agent';
import { loadSession, SessionWriter } from '@glimpse/agent/node';
import { createGlimpseMcpServer } from '@glimpse/agent/mcp';

const photo = new Uint8Array(await readFile('photo-exif6.jpg')); // 4000×3000 stored sideways (EXIF 6)
const fitted = await fit(photo, { provider: 'anthropic' });
assert.deepEqual([fitted.mediaType, fitted.width, fitted.height], ['image/jpeg', 1176, 1568]);
assert.deepEqual(fitted.steps, ['oriented', 'resized']);

const result = await toolResultFrom({ toolCallId: 'call_1', toolName: 'take_photo', output: { text: 'The photo:', attachments: [{ bytes: photo }] }, provider: 'anthropic', model: 'claude-sonnet-4-5' });
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

const log = await SessionWriter.open('session.jsonl', { app: { name: 'consumer' } });
for (const message of messages) await log.append(message);
await log.close();
assert.equal((await loadSession('session.jsonl')).entries.length, 3);
assert.equal(typeof createGlimpseMcpServer({ root: '.' }).connect, 'function');
console.log('node: ok');
