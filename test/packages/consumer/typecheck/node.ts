import { readFile } from 'node:fs/promises';
import { process } from '@glimpse/media';
import '@glimpse/heif';
import { createFileTools, serialize } from '@glimpse/agent';
import { SessionWriter, loadSession, nodeFileSystem } from '@glimpse/agent/node';
import { createGlimpseMcpServer, createViewWorkerPool } from '@glimpse/agent/mcp';
import { fitMediaMiddleware, toAiSdkModelOutput, type FitMediaWarning } from '@glimpse/agent/ai-sdk';
import { fitPiContent, glimpsePiExtension, toPiMessages, type PiContent } from '@glimpse/agent/pi';
import { createModelClient, isModelClientError, type LiveClientOptions } from '@glimpse/agent/clients';
import { serializeAnthropic, type AnthropicRequestBody } from '@glimpse/agent/providers';
import { anthropicImageTokens } from '@glimpse/agent/compaction';
import type { SessionHeader } from '@glimpse/agent/session';
import { MemoryFileSystem, type FileSystem } from '@glimpse/agent/fs';
import { createViewFileTool, type ViewFileOutcome } from '@glimpse/agent/tools';

const bytes = new Uint8Array(await readFile('photo.jpg'));
const fitted = await process(bytes, { provider: 'bedrock' });
const files = createFileTools({
  route: () => ({ provider: 'anthropic', model: 'claude-sonnet-4-5' }),
  fileSystem: nodeFileSystem,
});
const log = await SessionWriter.open('s.jsonl', { app: { name: 'x' } });
await log.close();
const session = await loadSession('s.jsonl');
const server = createGlimpseMcpServer({ root: '.', viewFileRunner: createViewWorkerPool({ timeoutMs: 5000 }).view });
console.log(fitted.width, files.offered().length, session.entries.length, typeof server, typeof serialize);

const warnings: FitMediaWarning[] = [];
const middleware = fitMediaMiddleware({ provider: 'openai-chat', onWarning: (warning) => warnings.push(warning) });
const piContent: PiContent[] = await fitPiContent([{ type: 'image', mimeType: 'image/png', data: '' }], {
  preset: 'anthropic',
});
const options: LiveClientOptions = { model: 'claude-sonnet-5-5', maxTokens: 1024 };
const client = createModelClient({ provider: 'anthropic', ...options });
try {
  await client.next({ messages: [], tools: [], serialized: serialize('anthropic', { messages: [] }) });
} catch (error) {
  if (isModelClientError(error)) console.log(error.code, error.details.provider);
}
const anthropicBody: AnthropicRequestBody = serializeAnthropic({ messages: [] }).body;
const header: SessionHeader['format'] = 'glimpse-session';
const memory: FileSystem = new MemoryFileSystem({ files: {} });
const outcome: ViewFileOutcome = { parts: [], isError: false };
console.log(
  anthropicBody.messages.length,
  anthropicImageTokens(100, 100),
  header,
  typeof memory.readBytes,
  outcome.isError,
  typeof createViewFileTool,
  typeof middleware.transformParams,
  piContent.length,
  typeof glimpsePiExtension,
  typeof toPiMessages,
  typeof toAiSdkModelOutput,
  warnings.length,
);
