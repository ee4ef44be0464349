// Tool results from an MCP server, through the AI SDK's own MCP client (`@ai-sdk/mcp`): its image content and
// the embedded PDF it writes out as JSON text both reach the model as fitted media.
import { createMCPClient } from '@ai-sdk/mcp';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { generateText, stepCountIs, wrapLanguageModel } from 'ai';
import { afterAll, describe, expect, it } from 'vitest';
import { readSample } from './support/read-sample.js';
import { fitMediaMiddleware } from '../packages/agent/src/entries/ai-sdk.js';
import { AI_SDK_PROVIDERS } from './support/ai-sdk-providers.js';
import { at } from './support/json-path.js';
import { captureFetch } from './support/capture-fetch.js';
import { decodeStrictly, findWireMedia } from './support/wire-media.js';

const sample = async (name: string) => Buffer.from(await readSample(name)).toString('base64');
const screenshot = await sample('screenshot.png'); // 2400x1500
const report = await sample('report.pdf');

const server = new McpServer({ name: 'screens', version: '1.0.0' });
server.registerTool('snapshot', { description: 'Captures the screen and the open report.' }, async () => ({
  content: [
    { type: 'text', text: 'Captured.' },
    { type: 'image', data: screenshot, mimeType: 'image/png' },
    { type: 'resource', resource: { uri: 'file:///reports/report.pdf', mimeType: 'application/pdf', blob: report } },
  ],
}));
const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
await server.connect(serverSide);
const mcp = await createMCPClient({ transport: clientSide, protocolVersionDiscovery: false });
const tools = await mcp.tools();
afterAll(async () => {
  await mcp.close();
  await server.close();
});

async function ask(route: 'openai-chat' | 'anthropic') {
  const provider = AI_SDK_PROVIDERS.find((p) => p.route === route)!;
  const capture = captureFetch((_r, index) =>
    index === 0 ? provider.toolCall('snapshot', 'call_9') : provider.text('done'),
  );
  const model = wrapLanguageModel({ model: provider.model(capture.fetch), middleware: fitMediaMiddleware() });
  await generateText({ model, tools, prompt: 'Look at my screen.', stopWhen: stepCountIs(2) });
  return capture.requests[1]!;
}

describe('fitMediaMiddleware with an MCP server', () => {
  it('openai.chat: the screenshot and the PDF move into one user message; the tool message is short text', async () => {
    const request = await ask('openai-chat');
    const messages = (request.json as { messages: Array<{ role: string; content: unknown }> }).messages;
    const toolIndex = messages.findIndex((m) => m.role === 'tool');
    const toolText = String(messages[toolIndex]!.content);
    expect(toolText).toBe(
      [
        'Captured.',
        // OpenAI's tile models work at 768 px on the short side (after the 2048 box): sent at that size.
        '[attachment 1 was resized from 2400x1500 to 1229x768 px; multiply coordinates in it by 1.953 to get coordinates in the original]',
        '[1 image and 1 PDF from this result are attached after the tool results, labelled call_9]',
      ].join('\n'),
    );
    const media = findWireMedia(request.json);
    expect(media.map((m) => [m.path, m.mediaType])).toEqual([
      [`messages.${toolIndex + 1}.content.1.image_url.url`, 'image/png'],
      [`messages.${toolIndex + 1}.content.2.file.file_data`, 'application/pdf'],
    ]);
    expect(await decodeStrictly(media[0]!.bytes)).toMatchObject({ width: 1229, height: 768 });
    expect(at(request.json, `messages.${toolIndex + 1}.content.2.file.filename`)).toBe('report.pdf');
  });

  it('anthropic: both ride inside the tool_result, the PDF as a document block', async () => {
    const request = await ask('anthropic');
    const media = findWireMedia(request.json);
    expect(media.map((m) => [m.path, m.mediaType])).toEqual([
      ['messages.2.content.0.content.1.source.data', 'image/png'],
      ['messages.2.content.0.content.2.source.data', 'application/pdf'],
    ]);
    expect(at(request.json, 'messages.2.content.0.content.2.type')).toBe('document');
    expect(await decodeStrictly(media[0]!.bytes)).toMatchObject({ width: 1389, height: 868 });
    expect(request.text).not.toContain('"type":"resource"');
  });
});
