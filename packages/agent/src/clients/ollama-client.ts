import type { ChatResponse, Ollama } from 'ollama';
import type { ModelClient, ModelRequest, ModelTurn } from '../loop/model-client.js';
import { describeCredentials } from './credentials.js';
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

export const OLLAMA_DEFAULT_HOST = 'http://127.0.0.1:11434';

function collect(part: ChatResponse, turn: ModelTurn, emit: (delta: string) => void): void {
  turn.text += part.message.content;
  emit(part.message.content);
  // Ollama sends each call whole, without an id; the loop needs one to pair the result.
  for (const call of part.message.tool_calls ?? [])
    turn.toolCalls.push({
      id: `call_${crypto.randomUUID()}`,
      name: call.function.name,
      arguments: { ...call.function.arguments },
    });
}

/**
 * A live client for Ollama's /api/chat over `ollama`: it streams `{ model, ...request.serialized.body, stream }`.
 * The host is `baseUrl`, else OLLAMA_HOST, else the local default; `apiKey` is sent as a bearer token (Ollama's cloud).
 */
export function createOllamaClient(options: LiveClientOptions): ModelClient {
  const host = options.baseUrl ?? processEnvHost(options) ?? OLLAMA_DEFAULT_HOST;
  let sdk: Promise<typeof Ollama> | undefined;
  const Client = () => (sdk ??= loadSdk('ollama', () => import('ollama')).then((module) => module.Ollama));
  return {
    inputModalities: inputModalitiesFor('ollama', options),
    async next(request: ModelRequest, signal?: AbortSignal): Promise<ModelTurn> {
      const body = routeBody('ollama', request);
      const Sdk = await Client();
      return withRetries('ollama', describeCredentials('ollama'), { ...options, signal }, async (emit) => {
        const attempt = attemptSignal(signal, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
        // The SDK takes no signal; a fetch that carries ours stops the request and the stream alike.
        const ollama = new Sdk({
          host,
          fetch: (input, init) => fetch(input, { ...init, signal: attempt }),
          ...(options.apiKey !== undefined && { headers: { Authorization: `Bearer ${options.apiKey}` } }),
        });
        const turn: ModelTurn = { text: '', toolCalls: [] };
        const stream = await ollama.chat({
          model: options.model,
          ...body,
          stream: true,
          ...(options.maxTokens !== undefined && { options: { num_predict: options.maxTokens } }),
        });
        for await (const part of stream) collect(part, turn, emit);
        return turn;
      });
    },
  };
}

function processEnvHost(options: LiveClientOptions): string | undefined {
  const host = (options.env ?? processEnv()).OLLAMA_HOST;
  return host === undefined || host === '' ? undefined : /^https?:\/\//.test(host) ? host : `http://${host}`;
}
