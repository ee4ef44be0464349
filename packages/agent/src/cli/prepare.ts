import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { bytesToBase64 } from '../base64.js';
import { isProviderName, PROVIDER_NAMES, type ProviderName } from '../capabilities.js';
import { FileError } from '../fs/file-error.js';
import type { Message, ToolCall, ToolDefinition } from '../parts.js';
import { serialize } from '../providers/index.js';
import { toolResultFrom } from '../tool.js';
import { parseArgs, stringFlag } from './args.js';
import { UsageError, type Command } from './command.js';

const usage = `Usage: glimpse prepare FILE... --provider PROVIDER [--model ID] [--no-vision] [--lift-tool-media]

Builds the request messages a provider receives when an agent's tool hands it FILEs: a user asks, the
assistant calls view_file once per FILE (in order, in one turn), and the results come back with each
file fitted by the media pipeline and placed where that provider wants tool-result media.

Options:
  --provider PROVIDER  ${PROVIDER_NAMES.join(', ')}
  --model ID           the model id; picks capabilities (Gemini 3 vs older, text-only models, …)
                       (default: the route's default, a vision model; text-only on ollama)
  --no-vision          treat the model as text-only: images and PDFs become placeholders
  --lift-tool-media    openai-responses: media in a user message after the outputs, not inside them
  -h, --help           show this help

Prints one JSON object: {"provider": PROVIDER, "messages": [...]}, where messages is the provider's
own list (Anthropic/OpenAI Chat/Bedrock/Ollama messages, Responses input items, Gemini contents).
Bedrock's media bytes are printed as base64 strings, as in the Converse JSON wire format.
A file that cannot be attached (garbage, encrypted PDF, …) becomes a note in its result, not a failure.
Warnings (media omitted, names changed) go to stderr, one line each.
Exit codes: 0 ok; 1 a FILE cannot be read (one JSON line on stderr: {"error":{"code":"E_…","message":"…"}});
2 usage.`;

const VIEW_FILE: ToolDefinition = {
  name: 'view_file',
  description: 'Look at an image, SVG or PDF; the file is attached to the result.',
  parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
};

/** The one place prepare touches the file system; the bounded file seam replaces it. */
async function readInputFile(path: string): Promise<Uint8Array> {
  try {
    return new Uint8Array(await readFile(path));
  } catch (error) {
    const code = typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
    if (code === 'ENOENT') throw new FileError('E_FILE_NOT_FOUND', `${path} does not exist. Check the path.`, { path });
    if (code === 'EISDIR') throw new FileError('E_NOT_A_FILE', `${path} is a directory. Pass files.`, { path });
    if (code === 'EACCES' || code === 'EPERM') throw new FileError('E_PERMISSION_DENIED', `${path} cannot be read: permission denied.`, { path });
    throw error;
  }
}

/** JSON with byte arrays as base64 strings: Bedrock's `source.bytes`, like the Converse JSON wire format. */
export function requestJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => (item instanceof Uint8Array ? bytesToBase64(item) : item));
}

/** The conversation `prepare` prints: one view_file call per file, in order, all in one assistant turn. */
export async function prepareConversation(files: readonly string[], provider: ProviderName, model: string | undefined): Promise<Message[]> {
  const calls: ToolCall[] = files.map((path, i) => ({ id: `call_${i + 1}`, name: VIEW_FILE.name, arguments: { path } }));
  const results: Message[] = [];
  for (const call of calls) {
    const path = String(call.arguments.path);
    const bytes = await readInputFile(path);
    results.push(await toolResultFrom({ toolCallId: call.id, toolName: call.name, output: { attachments: [{ bytes, filename: basename(path) }] }, provider, model }));
  }
  const ask = files.length === 1 ? `Please look at ${files[0]}.` : `Please look at these files: ${files.join(', ')}.`;
  return [{ role: 'user', parts: [{ type: 'text', text: ask }] }, { role: 'assistant', text: '', toolCalls: calls }, ...results];
}

export const prepareCommand: Command = {
  name: 'prepare',
  summary: 'print the provider-native messages for tool results that carry FILEs',
  usage,
  async run(args) {
    const { positionals, flags } = parseArgs(args, { values: ['--provider', '--model'], booleans: ['--no-vision', '--lift-tool-media'] });
    if (positionals.length === 0) throw new UsageError('expected at least one FILE');
    const provider = stringFlag(flags, '--provider');
    if (provider === undefined) throw new UsageError(`--provider is required: ${PROVIDER_NAMES.join(', ')}`);
    if (!isProviderName(provider)) throw new UsageError(`--provider must be one of ${PROVIDER_NAMES.join(', ')}, got ${JSON.stringify(provider)}`);
    const model = stringFlag(flags, '--model');
    const messages = await prepareConversation(positionals, provider, model);
    const request = serialize(provider, {
      messages,
      tools: [VIEW_FILE],
      model,
      ...(flags.has('--no-vision') ? { capabilities: { imageInput: false, pdfInput: false } } : {}),
      ...(flags.has('--lift-tool-media') ? { liftToolMedia: true } : {}),
    });
    for (const warning of request.warnings) process.stderr.write(`glimpse prepare: warning: ${warning.message}\n`);
    process.stdout.write(requestJson({ provider, messages: request.messages }) + '\n');
    return 0;
  },
};
