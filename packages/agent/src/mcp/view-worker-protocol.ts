// The messages between the MCP server and its view_file worker threads (view-worker-pool.ts ↔ entries/mcp-worker.ts).
import type { ProcessResult } from '@glimpse/media';
import type { ModelCapabilities } from '../route/capabilities.js';
import type { DocumentPart, ImagePart, Part, TextPart } from '../types.js';
import type { ViewFileOutcome } from '../tools/view-file.js';

/** The view_file options that can cross a thread: plain data only. A worker reads through Node's file system. */
export interface PortableViewOptions {
  root: string;
  maxFileBytes: number;
  strict: boolean;
  capabilities: ModelCapabilities;
  /** `glimpse mcp --max-input-pixels N`; absent: media's default. */
  maxInputPixels?: number;
}

/** What every view worker is started with (`workerData`): the fonts for SVG text, sent once, not with each call. */
export interface ViewWorkerData {
  /** `glimpse mcp --font FILE`: tried before the bundled face. */
  fonts: Uint8Array[];
  /** Whether SVG text the fonts lack may be drawn with the system's fonts (`--no-system-fonts` turns it off). */
  systemFonts: boolean;
}

export function isViewWorkerData(data: unknown): data is ViewWorkerData {
  return (
    typeof data === 'object' &&
    data !== null &&
    'fonts' in data &&
    Array.isArray(data.fonts) &&
    data.fonts.every((font) => font instanceof Uint8Array) &&
    'systemFonts' in data &&
    typeof data.systemFonts === 'boolean'
  );
}

export interface ViewRequest {
  args: Record<string, unknown>;
  options: PortableViewOptions;
}

/** A media part whose base64 stayed behind in the worker: its bytes travel once, as the transferred `processed.data`. */
export type WirePart =
  | TextPart
  | (Omit<ImagePart, 'data'> & { data?: string })
  | (Omit<DocumentPart, 'data'> & { data?: string });

export type ViewReply =
  | { kind: 'done'; parts: WirePart[]; isError: boolean; path?: string; processed?: ProcessResult }
  | { kind: 'failed'; message: string; stack?: string };

export function isViewRequest(message: unknown): message is ViewRequest {
  if (typeof message !== 'object' || message === null || !('args' in message) || !('options' in message)) return false;
  const { args, options } = message;
  return (
    typeof args === 'object' &&
    args !== null &&
    typeof options === 'object' &&
    options !== null &&
    'root' in options &&
    'capabilities' in options
  );
}

export function isViewReply(message: unknown): message is ViewReply {
  return (
    typeof message === 'object' &&
    message !== null &&
    'kind' in message &&
    (message.kind === 'done' || message.kind === 'failed')
  );
}

/**
 * An outcome as a reply plus the buffers to transfer: media parts lose their base64 (it is `processed.data`
 * encoded), and `processed.data` moves to the other thread instead of being copied.
 */
export function replyFromOutcome(outcome: ViewFileOutcome): { reply: ViewReply; transfer: ArrayBuffer[] } {
  const { processed } = outcome;
  if (processed === undefined) {
    return {
      reply: { kind: 'done', parts: outcome.parts, isError: outcome.isError, path: outcome.path },
      transfer: [],
    };
  }
  const parts = outcome.parts.map((part): WirePart => (part.type === 'text' ? part : { ...part, data: undefined }));
  const data = ownBuffer(processed.data);
  return {
    reply: { kind: 'done', parts, isError: outcome.isError, path: outcome.path, processed: { ...processed, data } },
    transfer: [data.buffer],
  };
}

/** The outcome back from a `done` reply: media parts get their base64 again from `processed.data`. */
export function outcomeFromReply(reply: Extract<ViewReply, { kind: 'done' }>): ViewFileOutcome {
  const { processed } = reply;
  let base64: string | undefined;
  const mediaBase64 = (): string => {
    if (processed === undefined) throw new Error('view_file worker sent a media part without its bytes');
    base64 ??= Buffer.from(processed.data.buffer, processed.data.byteOffset, processed.data.byteLength).toString(
      'base64',
    );
    return base64;
  };
  const parts = reply.parts.map(
    (part): Part => (part.type === 'text' ? part : { ...part, data: part.data ?? mediaBase64() }),
  );
  return { parts, isError: reply.isError, path: reply.path, processed };
}

/**
 * A copy unless the view owns its whole ArrayBuffer: transferring a slice of a shared buffer (Node's Buffer
 * pool, a WASM memory) would detach everything else in it.
 */
function ownBuffer(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  const { buffer } = bytes;
  if (buffer instanceof ArrayBuffer && bytes.byteOffset === 0 && bytes.byteLength === buffer.byteLength)
    return new Uint8Array(buffer);
  return bytes.slice();
}
