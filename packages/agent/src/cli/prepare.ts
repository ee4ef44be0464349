import { isProviderName, PROVIDER_NAMES, type ProviderName } from '../route/capabilities.js';
import { resolveRoute, type ModelRoute } from '../route/resolve-route.js';
import { isFileError } from '../fs/file-error.js';
import type { Message, ToolCall } from '../types.js';
import { fitConversation } from '../fit-conversation.js';
import { serialize } from '../providers/serialize.js';
import { requestJson } from '../providers/request-json.js';
import { DEFAULT_MAX_FILE_BYTES } from '../tools/file-limits.js';
import { VIEW_FILE_TOOL_DEFINITION, viewFile } from '../tools/view-file.js';
import { parseArgs, positiveInteger, stringFlag } from './args.js';
import { UsageError, type Command } from './command.js';
import { loadOptionalDecoders } from './load-optional-decoders.js';
import { asGiven } from './read-input.js';
import './local-disk.js';

/** Each route's body keys, as `serialize` writes them for a turn with a system prompt and a tool. */
function bodyKeys(): string {
  const example = { system: 'S', tools: [VIEW_FILE_TOOL_DEFINITION], messages: [{ role: 'user' as const, parts: [] }] };
  return PROVIDER_NAMES.map((provider) => {
    const { body } = serialize(provider, example);
    const systemFirst = 'messages' in body && body.messages[0]?.role === 'system';
    const keys = Object.keys(body).map((key) =>
      key === 'messages' && systemFirst ? `${key} (the system prompt first)` : key,
    );
    return `  ${provider.padEnd(18)}${keys.join(', ')}`;
  }).join('\n');
}

const usage = `Usage: glimpse prepare FILE... --provider PROVIDER [--model ID] [--system TEXT] [--no-vision]
                       [--lift-tool-media] [--max-file-bytes N] [--max-input-pixels N] [--keep-metadata]

Builds the request a provider receives when an agent's tool hands it FILEs: a user asks, the assistant
calls view_file once per FILE (in order, in one turn), and the results come back with each file fitted
by the media pipeline and placed where that provider wants tool-result media.

Options:
  --provider PROVIDER  ${PROVIDER_NAMES.join(', ')}
  --model ID           the model id; picks capabilities (Gemini 3 vs older, text-only models, …)
                       (default: the route's default, a vision model; text-only on ollama)
  --system TEXT        the system prompt, sent where the API wants it
  --no-vision          treat the model as text-only: images and PDFs become placeholders
  --lift-tool-media    openai-responses: media in a user message after the outputs, not inside them
  --max-file-bytes N   refuse a FILE larger than N bytes without reading it (default ${DEFAULT_MAX_FILE_BYTES})
  --max-input-pixels N refuse an image whose header declares more pixels (default 100000000): its result
                       is an error note
  --keep-metadata      send images with their Exif, XMP, IPTC and comments (GPS position included);
                       by default they are cut out, losslessly
  -h, --help           show this help

Prints one JSON object: "provider", then the provider's request body with the API's own keys:
${bodyKeys()}
Without "provider", plus the model (and max_tokens for anthropic), it is a request the API accepts;
gemini and bedrock take the model in the URL. Bedrock's media bytes are base64 strings, as in the Converse
JSON wire format: give the SDK bedrockRequestFromJson(output), never the strings (it would encode them
again). The @google/genai SDK takes toGeminiParameters(output, model).
Each FILE is read by the view_file tool: a name typed with plain spaces finds a file named with
Unicode spaces (macOS screenshots), and the result says which file was read.
A file that cannot be attached (garbage, encrypted PDF, …) becomes an error note in its result, not a failure.
The request stays inside the provider's caps as a whole (anthropic 32 MB, gemini 20 MB, openai 50 MB per
request): over them, images are fitted smaller (quality, then size, down to 1024 px) and only then the first
ones left out with a note.
Warnings (media re-fitted or omitted, names changed) go to stderr, one line each.
Exit codes: 0 ok; 1 a FILE cannot be read (one JSON line on stderr: {"error":{"code":"E_…","message":"…"}});
2 usage.`;

/** The route `prepare` serializes for: the model's, or a text-only one with `--no-vision`. */
function prepareRoute(provider: ProviderName, model: string | undefined, noVision: boolean): ModelRoute {
  return resolveRoute({
    provider,
    ...(model !== undefined && { model }),
    ...(noVision && { overrides: { imageInput: false, pdfInput: false } }),
  });
}

/**
 * The conversation `prepare` prints: one view_file call per file, in order, all in one assistant turn. `route`
 * (resolved already) wins over `provider`, `model` and `noVision`.
 */
export async function prepareConversation(
  files: readonly string[],
  provider: ProviderName,
  model: string | undefined,
  {
    maxFileBytes = DEFAULT_MAX_FILE_BYTES,
    noVision = false,
    route = prepareRoute(provider, model, noVision),
    keepMetadata = false,
    maxInputPixels,
  }: {
    maxFileBytes?: number;
    noVision?: boolean;
    route?: ModelRoute;
    keepMetadata?: boolean;
    maxInputPixels?: number;
  } = {},
): Promise<Message[]> {
  const calls: ToolCall[] = files.map((path, i) => ({
    id: `call_${i + 1}`,
    name: VIEW_FILE_TOOL_DEFINITION.name,
    arguments: { path },
  }));
  // The route's real capabilities: a PDF for a model without PDF input comes as text (and page images if it sees).
  const { capabilities } = route;
  const results: Message[] = [];
  for (const call of calls) {
    let outcome = await viewFile(call.arguments, { capabilities, maxFileBytes, keepMetadata, maxInputPixels });
    // view_file refuses an image for a text-only model; attach it anyway, so the output shows the serializer's placeholder.
    if (isFileError(outcome.error) && outcome.error.code === 'E_NO_IMAGE_INPUT')
      outcome = await viewFile(call.arguments, {
        capabilities: { ...capabilities, imageInput: true },
        maxFileBytes,
        keepMetadata,
        maxInputPixels,
      });
    // A FILE that cannot be read at all (missing, too large, ambiguous name) fails the command; bad content is a note.
    if (isFileError(outcome.error)) throw asGiven(outcome.error, String(call.arguments['path']));
    results.push({
      role: 'toolResult',
      toolCallId: call.id,
      toolName: call.name,
      parts: outcome.parts,
      isError: outcome.isError,
    });
  }
  const ask = files.length === 1 ? `Please look at ${files[0]}.` : `Please look at these files: ${files.join(', ')}.`;
  return [
    { role: 'user', parts: [{ type: 'text', text: ask }] },
    { role: 'assistant', text: '', toolCalls: calls },
    ...results,
  ];
}

export const prepareCommand: Command = {
  usage,
  async run(args) {
    await loadOptionalDecoders();
    const { positionals, flags } = parseArgs(args, {
      values: ['--provider', '--model', '--system', '--max-file-bytes', '--max-input-pixels'],
      booleans: ['--no-vision', '--lift-tool-media', '--keep-metadata'],
    });
    if (positionals.length === 0) throw new UsageError('expected at least one FILE');
    const provider = stringFlag(flags, '--provider');
    if (provider === undefined) throw new UsageError(`--provider is required: ${PROVIDER_NAMES.join(', ')}`);
    if (!isProviderName(provider))
      throw new UsageError(`--provider must be one of ${PROVIDER_NAMES.join(', ')}, got ${JSON.stringify(provider)}`);
    const model = stringFlag(flags, '--model');
    const route = prepareRoute(provider, model, flags.has('--no-vision'));
    const messages = await prepareConversation(positionals, provider, model, {
      maxFileBytes: positiveInteger(flags, '--max-file-bytes'),
      route,
      keepMetadata: flags.has('--keep-metadata'),
      maxInputPixels: positiveInteger(flags, '--max-input-pixels'),
    });
    const system = stringFlag(flags, '--system');
    const conversation = {
      ...(system !== undefined && { system }),
      tools: [VIEW_FILE_TOOL_DEFINITION],
      route,
      ...(flags.has('--lift-tool-media') ? { liftToolMedia: true } : {}),
    };
    // The whole request within the provider's caps, the way the agent loop sends it.
    const fitted = await fitConversation({
      ...conversation,
      messages,
      provider,
      ...(flags.has('--keep-metadata') && { keepMetadata: true }),
    });
    const request = serialize(provider, { ...conversation, messages: fitted.messages });
    for (const warning of [...fitted.warnings, ...request.warnings])
      process.stderr.write(`glimpse prepare: warning: ${warning.message}\n`);
    process.stdout.write(`${requestJson({ provider, ...request.body })}\n`);
    return 0;
  },
};
