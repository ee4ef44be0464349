// What the provider-file-reference tests share: a live client that uploads (`fileReferences: true`, through its
// official SDK, to the local API server), and the references a request body names, read from the wire.
import { createModelClient } from '../../packages/agent/src/entries/clients.js';
import type { ModelClient } from '../../packages/agent/src/index.js';
import type { StoredUpload } from './file-uploads.js';

export type ReferencingProvider = 'anthropic' | 'openai-chat' | 'openai-responses' | 'gemini';

/** A live client for `provider` against `baseUrl` that uploads media and names them by reference; no retries. */
export function referencingClient(provider: ReferencingProvider, model: string, baseUrl: string): ModelClient {
  return createModelClient({
    provider,
    model,
    apiKey: 'test-key',
    baseUrl,
    maxRetries: 0,
    env: {},
    fileReferences: true,
  });
}

/** The references a body names, in order, by wire shape: Anthropic `source.file_id`, Gemini `fileData.fileUri`. */
export function referencesIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(referencesIn);
  if (typeof value !== 'object' || value === null) return [];
  const record = value as Record<string, unknown>;
  const source = record.source as { type?: string; file_id?: string } | undefined;
  const fileData = record.fileData as { fileUri?: string } | undefined;
  const own = [
    ...(source?.type === 'file' && source.file_id ? [source.file_id] : []),
    ...(fileData?.fileUri ? [fileData.fileUri] : []),
  ];
  return [...own, ...Object.values(record).flatMap(referencesIn)];
}

/**
 * The `media` line (its sha256 and reference) that says an upload of the fake store (test/support/file-uploads.ts)
 * expires at `expiresAt`: what the log holds once the reference is found deleted or gone.
 */
export function expiredLine(
  upload: StoredUpload,
  expiresAt: unknown,
): { sha256: string; reference: Record<string, unknown> } {
  return {
    sha256: upload.sha256,
    reference: {
      provider: upload.api,
      id: upload.id,
      ...(upload.uri !== undefined && { uri: upload.uri }),
      mimeType: upload.mediaType,
      expiresAt,
    },
  };
}
