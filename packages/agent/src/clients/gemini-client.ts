import type { GenerateContentResponse, GoogleGenAI } from '@google/genai';
import type { ModelClient, ModelRequest, ModelTurn } from '../loop/model-client.js';
import type { ToolCall } from '../types.js';
import { toGeminiParameters } from '../providers/gemini-parameters.js';
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
import { deleteGeminiFile, uploadGeminiFile } from './upload-gemini-file.js';

/** Text and calls gathered from the streamed chunks; thoughts are the model's own and not part of its answer. */
function collect(chunk: GenerateContentResponse, turn: ModelTurn, emit: (delta: string) => void): void {
  for (const part of chunk.candidates?.[0]?.content?.parts ?? []) {
    if (typeof part.text === 'string' && part.thought !== true) {
      turn.text += part.text;
      emit(part.text);
    }
    const call = part.functionCall;
    if (call?.name !== undefined) {
      // Gemini names a call's id only sometimes; the loop needs one to pair the result.
      const toolCall: ToolCall = {
        id: call.id ?? `call_${crypto.randomUUID()}`,
        name: call.name,
        arguments: { ...call.args },
      };
      // Gemini 3 wants its thought signature back exactly as it came, or it loses its reasoning between steps.
      if (part.thoughtSignature !== undefined) toolCall.signature = part.thoughtSignature;
      turn.toolCalls.push(toolCall);
    }
  }
}

/**
 * A live client for Gemini's generateContent over `@google/genai`: the serializer's body goes through
 * `toGeminiParameters` (the SDK wants the system instruction and tools inside `config`) and streams.
 */
export function createGeminiClient(options: LiveClientOptions): ModelClient {
  const apiKey = options.apiKey ?? credentialFromEnv('gemini', options.env ?? processEnv());
  let sdk: Promise<GoogleGenAI> | undefined;
  const client = () =>
    (sdk ??= loadSdk('gemini', () => import('@google/genai')).then(
      ({ GoogleGenAI: Sdk }) =>
        new Sdk({
          apiKey: apiKey ?? 'none',
          httpOptions: {
            // v1beta, not the SDK's default v1: Google documents Gemini 3's per-part media_resolution (which the
            // serializer sets on images) for v1beta, as it does the request body glimpse prepare prints.
            apiVersion: 'v1beta',
            retryOptions: { attempts: 1 },
            ...(options.baseUrl !== undefined && { baseUrl: options.baseUrl }),
          },
        }),
    ));
  return {
    inputModalities: inputModalitiesFor('gemini', options),
    async next(request: ModelRequest, signal?: AbortSignal): Promise<ModelTurn> {
      const body = routeBody('gemini', request);
      if (apiKey === undefined && options.baseUrl === undefined) throw missingApiKey('gemini', 'Gemini');
      const gemini = await client();
      return withRetries('gemini', describeCredentials('gemini'), { ...options, signal }, async (emit) => {
        const config = {
          abortSignal: attemptSignal(signal, options.timeoutMs ?? DEFAULT_TIMEOUT_MS),
          ...(options.maxTokens !== undefined && { maxOutputTokens: options.maxTokens }),
        };
        const turn: ModelTurn = { text: '', toolCalls: [] };
        for await (const chunk of await gemini.models.generateContentStream(
          toGeminiParameters(body, options.model, config),
        ))
          collect(chunk, turn, emit);
        return turn;
      });
    },
    ...(options.fileReferences === true && {
      uploadMedia: async (media, signal) => {
        if (apiKey === undefined && options.baseUrl === undefined) throw missingApiKey('gemini', 'Gemini');
        return uploadGeminiFile(client, options)(media, signal);
      },
      deleteMedia: async (reference, signal) => {
        if (apiKey === undefined && options.baseUrl === undefined) throw missingApiKey('gemini', 'Gemini');
        return deleteGeminiFile(client, options)(reference, signal);
      },
    }),
  };
}
