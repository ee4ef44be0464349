import type OpenAI from 'openai';
import type { ModelClient, ModelRequest, ModelTurn } from '../loop/model-client.js';
import type { ToolCall } from '../types.js';
import { describeCredentials } from './credentials.js';
import { loadOpenAI } from './load-openai.js';
import {
  attemptSignal,
  DEFAULT_TIMEOUT_MS,
  inputModalitiesFor,
  type LiveClientOptions,
} from './live-client-options.js';
import { parseToolArguments } from './parse-tool-arguments.js';
import { withRetries } from './with-retries.js';
import { routeBody } from './route-body.js';
import { deleteOpenAIFile, uploadOpenAIFile } from './upload-openai-file.js';

function toTurn(response: OpenAI.Responses.Response): ModelTurn {
  const text = response.output
    .flatMap((item) =>
      item.type === 'message' ? item.content.flatMap((part) => (part.type === 'output_text' ? [part.text] : [])) : [],
    )
    .join('');
  const toolCalls = response.output.flatMap((item): ToolCall[] =>
    item.type === 'function_call'
      ? [{ id: item.call_id, name: item.name, arguments: parseToolArguments(item.arguments) }]
      : [],
  );
  return { text, toolCalls };
}

/** A live client for the OpenAI Responses API over `openai`: it streams `{ model, ...request.serialized.body }`. */
export function createOpenAIResponsesClient(options: LiveClientOptions): ModelClient {
  const client = loadOpenAI('openai-responses', options);
  return {
    inputModalities: inputModalitiesFor('openai-responses', options),
    async next(request: ModelRequest, signal?: AbortSignal): Promise<ModelTurn> {
      const body = routeBody('openai-responses', request);
      const openai = await client();
      return withRetries(
        'openai-responses',
        describeCredentials('openai-responses'),
        { ...options, signal },
        async (emit) => {
          const params = {
            model: options.model,
            ...body,
            ...(options.maxTokens !== undefined && { max_output_tokens: options.maxTokens }),
          };
          const stream = openai.responses.stream(params, {
            signal: attemptSignal(signal, options.timeoutMs ?? DEFAULT_TIMEOUT_MS),
          });
          stream.on('response.output_text.delta', (event) => emit(event.delta));
          return toTurn(await stream.finalResponse());
        },
      );
    },
    ...(options.fileReferences === true && {
      uploadMedia: uploadOpenAIFile('openai-responses', client, options),
      deleteMedia: deleteOpenAIFile('openai-responses', client, options),
    }),
  };
}
