import type { BedrockRuntimeClient, ConverseStreamOutput } from '@aws-sdk/client-bedrock-runtime';
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
import { ModelClientError } from './model-client-error.js';
import { parseToolArguments } from './parse-tool-arguments.js';
import { withRetries } from './with-retries.js';
import { routeBody } from './route-body.js';

export interface BedrockClientOptions extends LiveClientOptions {
  /** Default: AWS_REGION, else AWS_DEFAULT_REGION. */
  region?: string;
  /** Default: the AWS SDK's chain (environment, profile, role). `apiKey` (or AWS_BEARER_TOKEN_BEDROCK) is a Bedrock API key instead. */
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
}

/** Text and tool calls assembled from ConverseStream events; tool input arrives as JSON pieces per content block. */
class ConverseTurn {
  private text = '';
  private readonly calls = new Map<number, { id: string; name: string; json: string }>();

  add(event: ConverseStreamOutput, emit: (delta: string) => void): void {
    const start = event.contentBlockStart;
    if (start?.start?.toolUse !== undefined) {
      const { toolUseId = '', name = '' } = start.start.toolUse;
      this.calls.set(start.contentBlockIndex ?? this.calls.size, { id: toolUseId, name, json: '' });
    }
    const delta = event.contentBlockDelta;
    if (delta?.delta?.text !== undefined) {
      this.text += delta.delta.text;
      emit(delta.delta.text);
    }
    const input = delta?.delta?.toolUse?.input;
    const call = this.calls.get(delta?.contentBlockIndex ?? -1);
    if (input !== undefined && call !== undefined) call.json += input;
  }

  turn(): ModelTurn {
    return {
      text: this.text,
      toolCalls: [...this.calls.values()].map((call) => ({
        id: call.id,
        name: call.name,
        arguments: parseToolArguments(call.json),
      })),
    };
  }
}

/**
 * A live client for Bedrock's Converse API over `@aws-sdk/client-bedrock-runtime`: it streams
 * `{ modelId, ...request.serialized.body }` (media bytes as `Uint8Array`s, as the SDK wants them).
 */
export function createBedrockClient(options: BedrockClientOptions): ModelClient {
  const env = options.env ?? processEnv();
  const region = options.region ?? env.AWS_REGION ?? env.AWS_DEFAULT_REGION;
  const token = options.apiKey ?? env.AWS_BEARER_TOKEN_BEDROCK;
  let sdk:
    | Promise<{
        client: BedrockRuntimeClient;
        Command: typeof import('@aws-sdk/client-bedrock-runtime').ConverseStreamCommand;
      }>
    | undefined;
  const client = () =>
    (sdk ??= loadSdk('bedrock', () => import('@aws-sdk/client-bedrock-runtime')).then((aws) => ({
      client: new aws.BedrockRuntimeClient({
        region,
        maxAttempts: 1,
        ...(options.baseUrl !== undefined && { endpoint: options.baseUrl }),
        ...(options.credentials !== undefined && { credentials: options.credentials }),
        ...(token !== undefined && token !== '' && { token: { token }, authSchemePreference: ['httpBearerAuth'] }),
      }),
      Command: aws.ConverseStreamCommand,
    })));
  return {
    inputModalities: inputModalitiesFor('bedrock', options),
    async next(request: ModelRequest, signal?: AbortSignal): Promise<ModelTurn> {
      const body = routeBody('bedrock', request);
      if (region === undefined)
        throw new ModelClientError('E_AUTH', 'No AWS region for Bedrock: set AWS_REGION or pass region.', {
          provider: 'bedrock',
        });
      const { client: bedrock, Command } = await client();
      return withRetries('bedrock', describeCredentials('bedrock'), { ...options, signal }, async (emit) => {
        const command = new Command({
          modelId: options.model,
          ...body,
          ...(options.maxTokens !== undefined && { inferenceConfig: { maxTokens: options.maxTokens } }),
        });
        const response = await bedrock.send(command, {
          abortSignal: attemptSignal(signal, options.timeoutMs ?? DEFAULT_TIMEOUT_MS),
        });
        const turn = new ConverseTurn();
        for await (const event of response.stream ?? []) turn.add(event, emit);
        return turn.turn();
      });
    },
  };
}
