import type OpenAI from 'openai';
import type { ModelClient, ModelRequest, ModelTurn } from '../loop/model-client.js';
import type { ToolCall } from '../types.js';
import { loadOpenAI } from './load-openai.js';
import {
  attemptSignal,
  DEFAULT_TIMEOUT_MS,
  inputModalitiesFor,
  type LiveClientOptions,
} from './live-client-options.js';
import { parseToolArguments } from './parse-tool-arguments.js';
import { withRetries } from './with-retries.js';
import { describeCredentials } from './credentials.js';
import { routeBody } from './route-body.js';
import { deleteOpenAIFile, uploadOpenAIFile } from './upload-openai-file.js';

function toTurn(completion: OpenAI.Chat.ChatCompletion): ModelTurn {
  const message = completion.choices[0]?.message;
  const toolCalls = (message?.tool_calls ?? []).flatMap((call): ToolCall[] =>
    call.type === 'function'
      ? [{ id: call.id, name: call.function.name, arguments: parseToolArguments(call.function.arguments) }]
      : [],
  );
  return { text: message?.content ?? '', toolCalls };
}

/**
 * A live client for OpenAI Chat Completions (and OpenAI-compatible servers, with `baseUrl`) over `openai`: it
 * streams `{ model, ...request.serialized.body }` and reports text as it arrives.
 */
export function createOpenAIChatClient(options: LiveClientOptions): ModelClient {
  const client = loadOpenAI('openai-chat', options);
  return {
    inputModalities: inputModalitiesFor('openai-chat', options),
    async next(request: ModelRequest, signal?: AbortSignal): Promise<ModelTurn> {
      const body = routeBody('openai-chat', request);
      const openai = await client();
      return withRetries('openai-chat', describeCredentials('openai-chat'), { ...options, signal }, async (emit) => {
        const params = {
          model: options.model,
          ...body,
          ...(options.maxTokens !== undefined && { max_completion_tokens: options.maxTokens }),
        };
        const stream = openai.chat.completions.stream(params, {
          signal: attemptSignal(signal, options.timeoutMs ?? DEFAULT_TIMEOUT_MS),
        });
        stream.on('content.delta', ({ delta }) => emit(delta));
        return toTurn(await stream.finalChatCompletion());
      });
    },
    ...(options.fileReferences === true && {
      uploadMedia: uploadOpenAIFile('openai-chat', client, options),
      deleteMedia: deleteOpenAIFile('openai-chat', client, options),
    }),
  };
}
