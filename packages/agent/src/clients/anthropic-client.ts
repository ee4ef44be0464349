import type Anthropic from '@anthropic-ai/sdk';
import type { ModelClient, ModelRequest, ModelTurn } from '../loop/model-client.js';
import type { ToolCall } from '../types.js';
import { credentialFromEnv, describeCredentials, missingApiKey } from './credentials.js';
import {
  attemptSignal,
  DEFAULT_TIMEOUT_MS,
  inputModalitiesFor,
  processEnv,
  type LiveClientOptions,
} from './live-client-options.js';
import { loadSdk } from './load-sdk.js';
import { withRetries } from './with-retries.js';
import { routeBody } from './route-body.js';
import { ANTHROPIC_FILES_BETA, deleteAnthropicFile, uploadAnthropicFile } from './upload-anthropic-file.js';

/** Anthropic needs `max_tokens` on every request; this is enough for a long answer with tool calls. */
export const ANTHROPIC_DEFAULT_MAX_TOKENS = 8192;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function toTurn(message: Anthropic.Message): ModelTurn {
  const text = message.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('');
  const toolCalls = message.content.flatMap((block): ToolCall[] =>
    block.type === 'tool_use'
      ? [{ id: block.id, name: block.name, arguments: isRecord(block.input) ? { ...block.input } : {} }]
      : [],
  );
  return { text, toolCalls };
}

/**
 * A live client for the Anthropic Messages API over `@anthropic-ai/sdk`: it streams `{ model, max_tokens,
 * ...request.serialized.body }`, the serializer's body unchanged, and reports text as it arrives.
 */
export function createAnthropicClient(options: LiveClientOptions): ModelClient {
  const apiKey = options.apiKey ?? credentialFromEnv('anthropic', options.env ?? processEnv());
  let sdk: Promise<Anthropic> | undefined;
  const client = () =>
    (sdk ??= loadSdk('anthropic', () => import('@anthropic-ai/sdk')).then(
      ({ default: Sdk }) =>
        new Sdk({
          apiKey: apiKey ?? 'none',
          ...(options.baseUrl !== undefined && { baseURL: options.baseUrl }),
          maxRetries: 0,
        }),
    ));
  return {
    inputModalities: inputModalitiesFor('anthropic', options),
    async next(request: ModelRequest, signal?: AbortSignal): Promise<ModelTurn> {
      const body = routeBody('anthropic', request);
      if (apiKey === undefined && options.baseUrl === undefined) throw missingApiKey('anthropic', 'Anthropic');
      const anthropic = await client();
      return withRetries('anthropic', describeCredentials('anthropic'), { ...options, signal }, async (emit) => {
        const stream = anthropic.messages.stream(
          { model: options.model, max_tokens: options.maxTokens ?? ANTHROPIC_DEFAULT_MAX_TOKENS, ...body },
          {
            signal: attemptSignal(signal, options.timeoutMs ?? DEFAULT_TIMEOUT_MS),
            // A request naming a Files API upload must carry the beta header.
            ...(options.fileReferences === true && { headers: { 'anthropic-beta': ANTHROPIC_FILES_BETA } }),
          },
        );
        stream.on('text', emit);
        return toTurn(await stream.finalMessage());
      });
    },
    ...(options.fileReferences === true && {
      uploadMedia: async (media, signal) => {
        if (apiKey === undefined && options.baseUrl === undefined) throw missingApiKey('anthropic', 'Anthropic');
        return uploadAnthropicFile(client, options)(media, signal);
      },
      deleteMedia: async (reference, signal) => {
        if (apiKey === undefined && options.baseUrl === undefined) throw missingApiKey('anthropic', 'Anthropic');
        return deleteAnthropicFile(client, options)(reference, signal);
      },
    }),
  };
}
