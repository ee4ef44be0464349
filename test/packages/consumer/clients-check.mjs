// Runs after the optional peers are installed: a live client loads its provider SDK (here `ollama`) from the
// consumer's node_modules and streams a reply from a local stand-in for Ollama's /api/chat.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { serialize, toolResultFrom } from '@glimpse/agent';
import { createModelClient } from '@glimpse/agent/clients';

const requests = [];
const server = createServer(async (request, response) => {
  let body = '';
  for await (const chunk of request) body += chunk;
  requests.push({ path: request.url, body: JSON.parse(body) });
  response.writeHead(200, { 'content-type': 'application/x-ndjson' });
  const at = new Date().toISOString();
  response.write(`${JSON.stringify({ model: 'llava', created_at: at, message: { role: 'assistant', content: 'A whiteboard, ' }, done: false })}\n`);
  response.end(`${JSON.stringify({ model: 'llava', created_at: at, message: { role: 'assistant', content: 'upright.' }, done: true, done_reason: 'stop' })}\n`);
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
try {
  const photo = new Uint8Array(await readFile('photo-exif6.jpg'));
  const result = await toolResultFrom({ toolCallId: 'call_1', toolName: 'take_photo', output: { attachments: [{ bytes: photo }] }, provider: 'ollama', model: 'llava' });
  const messages = [
    { role: 'user', parts: [{ type: 'text', text: 'Take a photo.' }] },
    { role: 'assistant', text: '', toolCalls: [{ id: 'call_1', name: 'take_photo', arguments: {} }] },
    result,
  ];
  const streamed = [];
  const client = createModelClient({ provider: 'ollama', model: 'llava', baseUrl: `http://127.0.0.1:${server.address().port}`, onText: (delta) => streamed.push(delta) });
  const turn = await client.next({ messages, tools: [], serialized: serialize('ollama', { messages, model: 'llava' }) });
  assert.equal(turn.text, 'A whiteboard, upright.');
  assert.deepEqual(streamed, ['A whiteboard, ', 'upright.']);
  assert.equal(requests.length, 1);
  assert.equal(requests[0].path, '/api/chat');
  assert.equal(requests[0].body.model, 'llava');
  assert.ok(requests[0].body.messages.some((message) => message.images?.length === 1), 'the fitted photo reaches /api/chat');
  console.log('clients: ok');
} finally {
  server.close();
}
