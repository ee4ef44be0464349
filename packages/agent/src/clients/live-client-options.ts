import type { ProviderName } from '../route/capabilities.js';
import { resolveRoute } from '../route/resolve-route.js';
import type { InputModality } from '../loop/model-client.js';
import type { RetryOptions } from './with-retries.js';

/** What every live client takes. Provider-specific settings (Bedrock's region, …) sit on its own options. */
export interface LiveClientOptions extends RetryOptions {
  /** The model id as the provider names it. */
  model: string;
  /** The API key. Default: the provider's environment variable (see `CREDENTIAL_VARIABLES`). */
  apiKey?: string;
  /** Another endpoint: a proxy, a gateway, a local server. */
  baseUrl?: string;
  /** Most tokens in one answer. Anthropic requires it (default 8192); the others send it only when set. */
  maxTokens?: number;
  /** What the model reads. Default: the capability registry's answer for the model on this route. */
  inputModalities?: readonly InputModality[];
  /** Called with each piece of text as the model streams it. */
  onText?: (delta: string) => void;
  /** Per-attempt time limit. Default 10 minutes. */
  timeoutMs?: number;
  /**
   * Provider file references (Anthropic, OpenAI, Gemini; opt-in): the client uploads each image or PDF once with
   * the SDK's files API, and `runAgent` names it by its reference in every later request instead of base64. An
   * upload that fails leaves the medium inline (`media-reference-failed`). Bedrock and Ollama have none. Default false.
   */
  fileReferences?: boolean;
  /** Where keys are looked up. Default: `process.env` where there is one. */
  env?: Readonly<Record<string, string | undefined>>;
}

export const DEFAULT_TIMEOUT_MS = 600_000;

/** The registry's modalities for the model, unless the app named them. */
export function inputModalitiesFor(
  provider: ProviderName,
  options: Pick<LiveClientOptions, 'model' | 'inputModalities'>,
): readonly InputModality[] {
  if (options.inputModalities !== undefined) return options.inputModalities;
  const { capabilities } = resolveRoute({ provider, model: options.model });
  return [
    'text',
    ...(capabilities.imageInput ? ['image' as const] : []),
    ...(capabilities.pdfInput ? ['pdf' as const] : []),
  ];
}

/** The process environment where the runtime has one (Node, Deno with --allow-env, Bun); empty elsewhere. */
export function processEnv(): Readonly<Record<string, string | undefined>> {
  const holder: { process?: { env?: Record<string, string | undefined> } } = globalThis;
  return holder.process?.env ?? {};
}

/** A signal that fires on the caller's abort or after `timeoutMs`, whichever comes first. */
export function attemptSignal(signal: AbortSignal | undefined, timeoutMs: number): AbortSignal {
  const timeout = AbortSignal.timeout(timeoutMs);
  return signal === undefined ? timeout : AbortSignal.any([signal, timeout]);
}
