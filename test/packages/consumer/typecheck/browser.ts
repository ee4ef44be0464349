import { detect, probe, process, isMediaError, PRESETS, type ProcessResult } from '@glimpse/media';
import { fitMediaMiddleware } from '@glimpse/agent/ai-sdk';
import { HEIF_DECODER_NAME, registerHeif } from '@glimpse/heif';
import { MemoryFileSystem } from '@glimpse/agent/fs';
import {
  createFileTools,
  serialize,
  toolResultFrom,
  capabilitiesFor,
  chooseWindow,
  estimateMessageTokens,
  type Message,
} from '@glimpse/agent';

/** A self-hosted heif.wasm: registerHeif takes how the module is obtained. */
export function useOwnHeifModule(url: string): string {
  registerHeif(() => WebAssembly.compileStreaming(fetch(url)));
  return HEIF_DECODER_NAME;
}

export async function run(bytes: Uint8Array): Promise<number> {
  const type = detect(bytes);
  const info = await probe(bytes);
  let fitted: ProcessResult | undefined;
  try {
    fitted = await process(bytes, { provider: 'anthropic', maxEdge: 1000 });
  } catch (error) {
    if (isMediaError(error)) return error.code.length;
    throw error;
  }
  const files = createFileTools({
    fileSystem: new MemoryFileSystem({ files: { '/a.png': bytes } }),
    route: { provider: 'anthropic', model: 'claude-sonnet-4-5' },
  });
  const viewed = await files.viewFile.execute({ path: '/a.png' });
  const result = await toolResultFrom({
    toolCallId: 'c',
    toolName: 't',
    output: { attachments: [{ bytes }] },
    provider: 'openai-chat',
  });
  const messages: Message[] = [{ role: 'user', parts: [{ type: 'text', text: 'hi' }] }, result];
  const { body, warnings } = serialize('gemini', { messages });
  const window = chooseWindow({
    messages,
    budget: 1000,
    estimate: (m) => estimateMessageTokens(m, { provider: 'anthropic' }),
  });
  const middleware = fitMediaMiddleware({ preset: 'gemini' });
  return (
    (middleware.transformParams === undefined ? 0 : 1) +
    (type?.length ?? 0) +
    (info.width ?? 0) +
    fitted.bytes +
    viewed.parts.length +
    warnings.length +
    PRESETS.portable.maxEdge +
    window.tokens +
    (capabilitiesFor({ provider: 'bedrock' }).imageInput ? 1 : 0) +
    JSON.stringify(body).length
  );
}
