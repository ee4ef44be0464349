// One local HTTP server on 127.0.0.1 that speaks the six model APIs glimpse's live clients use, streaming as
// each does: Anthropic and OpenAI (Chat, Responses) and Gemini as server-sent events, Bedrock ConverseStream as
// AWS event-stream frames, Ollama as NDJSON. Each request takes the next entry of a script: a turn, an error
// status, or a dropped connection. Every request is kept, body parsed, for the test to compare with `serialize`.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import {
  createServer as createHttp2Server,
  type Http2ServerRequest,
  type Http2ServerResponse,
  type Http2Session,
} from 'node:http2';
import type { AddressInfo } from 'node:net';
import { crc32 } from '../fixtures/make.js';
import { handleUpload, type StoredUpload, type UploadCheck } from './file-uploads.js';
import { anthropicStream, openAIChatStream, RESPONSES_USAGE, type StreamedTurn } from './stream-replies.js';

export type ApiName = 'anthropic' | 'openai-chat' | 'openai-responses' | 'gemini' | 'bedrock' | 'ollama';

/** `type`: the API's own error type where it has one (Anthropic `request_too_large`, `invalid_request_error`). */
/** `details`: Gemini's google.rpc details (a BadRequest's `fieldViolations`), in its error body. */
export type ErrorEntry = { status: number; message?: string; retryAfter?: string; type?: string; details?: unknown[] };
export type ScriptEntry = StreamedTurn | ErrorEntry | { drop: true };

export interface ServerRequest {
  api: ApiName;
  path: string;
  headers: IncomingMessage['headers'];
  body: unknown;
  /** Bytes of the body as received. */
  bytes: number;
}

/** Checks a request the way the API does before it reads the script: an error to answer, or undefined to go on. */
export type RequestCheck = (request: ServerRequest) => ErrorEntry | undefined | Promise<ErrorEntry | undefined>;

export interface ApiServer {
  url: string;
  /** The same server over cleartext HTTP/2: the AWS SDK's Bedrock runtime client speaks only that. */
  http2Url: string;
  requests: ServerRequest[];
  /** Entries not yet used. */
  script: ScriptEntry[];
  /** What the live clients uploaded to the providers' file stores (test/support/file-uploads.ts). */
  uploads: StoredUpload[];
  close(): Promise<void>;
}

function apiOf(path: string): ApiName | undefined {
  if (path.endsWith('/messages')) return 'anthropic';
  if (path.endsWith('/chat/completions')) return 'openai-chat';
  if (path.endsWith('/responses')) return 'openai-responses';
  if (path.includes(':streamGenerateContent')) return 'gemini';
  if (path.endsWith('/converse-stream')) return 'bedrock';
  if (path.endsWith('/api/chat')) return 'ollama';
  return undefined;
}

async function readBody(request: IncomingMessage | Http2ServerRequest): Promise<{ body: unknown; bytes: number }> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks);
  const text = raw.toString('utf8');
  return { body: text === '' ? undefined : JSON.parse(text), bytes: raw.byteLength };
}

/** Each API's error body, so the SDKs read their own error types. */
function errorBody(
  api: ApiName,
  status: number,
  message: string,
  type?: string,
  details?: unknown[],
): { headers: Record<string, string>; body: string } {
  const json = { 'content-type': 'application/json' };
  switch (api) {
    case 'anthropic':
      return {
        headers: json,
        body: JSON.stringify({
          type: 'error',
          error: {
            type: type ?? (status === 429 ? 'rate_limit_error' : status === 401 ? 'authentication_error' : 'api_error'),
            message,
          },
        }),
      };
    case 'openai-chat':
    case 'openai-responses':
      return { headers: json, body: JSON.stringify({ error: { message, type: 'invalid_request_error', code: null } }) };
    case 'gemini':
      return {
        headers: json,
        body: JSON.stringify({
          error: {
            code: status,
            message,
            status: status === 429 ? 'RESOURCE_EXHAUSTED' : status === 403 ? 'PERMISSION_DENIED' : 'INVALID_ARGUMENT',
            ...(details && { details }),
          },
        }),
      };
    case 'bedrock':
      return {
        headers: {
          ...json,
          'x-amzn-errortype':
            status === 429 ? 'ThrottlingException' : status >= 500 ? 'InternalServerException' : 'ValidationException',
        },
        body: JSON.stringify({ message }),
      };
    case 'ollama':
      return { headers: json, body: JSON.stringify({ error: message }) };
  }
}

export function responsesStream({ text = '', toolCalls = [] }: StreamedTurn, model = 'gpt-5.1'): string {
  let sequence = 0;
  const events: string[] = [];
  const emit = (type: string, data: Record<string, unknown>) =>
    events.push(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence++, ...data })}\n\n`);
  const base = {
    id: 'resp_1',
    object: 'response',
    created_at: 1_700_000_000,
    model,
    output: [] as unknown[],
    parallel_tool_calls: true,
    tool_choice: 'auto',
    tools: [],
  };
  emit('response.created', { response: { ...base, status: 'in_progress' } });
  const output: unknown[] = [];
  if (text !== '') {
    const item = { id: 'msg_1', type: 'message', role: 'assistant', status: 'in_progress', content: [] };
    emit('response.output_item.added', { output_index: output.length, item });
    emit('response.content_part.added', {
      item_id: 'msg_1',
      output_index: output.length,
      content_index: 0,
      part: { type: 'output_text', text: '', annotations: [] },
    });
    for (let i = 0; i < text.length; i += 4)
      emit('response.output_text.delta', {
        item_id: 'msg_1',
        output_index: output.length,
        content_index: 0,
        delta: text.slice(i, i + 4),
        logprobs: [],
      });
    emit('response.output_text.done', {
      item_id: 'msg_1',
      output_index: output.length,
      content_index: 0,
      text,
      logprobs: [],
    });
    const done = { ...item, status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] };
    emit('response.content_part.done', {
      item_id: 'msg_1',
      output_index: output.length,
      content_index: 0,
      part: done.content[0],
    });
    emit('response.output_item.done', { output_index: output.length, item: done });
    output.push(done);
  }
  for (const call of toolCalls) {
    const args = JSON.stringify(call.arguments);
    const item = {
      id: `fc_${call.id}`,
      type: 'function_call',
      call_id: call.id,
      name: call.name,
      arguments: '',
      status: 'in_progress',
    };
    emit('response.output_item.added', { output_index: output.length, item });
    emit('response.function_call_arguments.delta', { item_id: item.id, output_index: output.length, delta: args });
    emit('response.function_call_arguments.done', { item_id: item.id, output_index: output.length, arguments: args });
    const done = { ...item, arguments: args, status: 'completed' };
    emit('response.output_item.done', { output_index: output.length, item: done });
    output.push(done);
  }
  emit('response.completed', {
    response: {
      ...base,
      status: 'completed',
      output,
      usage: RESPONSES_USAGE,
    },
  });
  return events.join('');
}

export function geminiStream({ text = '', toolCalls = [] }: StreamedTurn): string {
  const chunk = (parts: unknown[], finishReason?: string) =>
    `data: ${JSON.stringify({ candidates: [{ content: { role: 'model', parts }, index: 0, ...(finishReason && { finishReason }) }], ...(finishReason && { usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 } }) })}\r\n\r\n`;
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += 4) pieces.push(chunk([{ text: text.slice(i, i + 4) }]));
  if (toolCalls.length > 0)
    pieces.push(
      chunk(
        toolCalls.map((call) => ({
          functionCall: { id: call.id, name: call.name, args: call.arguments },
          ...(call.signature !== undefined && { thoughtSignature: call.signature }),
        })),
      ),
    );
  pieces.push(chunk([], 'STOP'));
  return pieces.join('');
}

export function ollamaStream({ text = '', toolCalls = [] }: StreamedTurn, model = 'qwen2.5vl:7b'): string {
  const line = (message: unknown, done: boolean) =>
    `${JSON.stringify({
      model,
      created_at: '2026-11-30T00:00:00Z',
      message,
      done,
      ...(done && { done_reason: 'stop', total_duration: 1, prompt_eval_count: 10, eval_count: 5 }),
    })}\n`;
  const lines: string[] = [];
  for (let i = 0; i < text.length; i += 4)
    lines.push(line({ role: 'assistant', content: text.slice(i, i + 4) }, false));
  if (toolCalls.length > 0)
    lines.push(
      line(
        {
          role: 'assistant',
          content: '',
          tool_calls: toolCalls.map((call) => ({ function: { name: call.name, arguments: call.arguments } })),
        },
        false,
      ),
    );
  lines.push(line({ role: 'assistant', content: '' }, true));
  return lines.join('');
}

/** One AWS event-stream frame: prelude (lengths + CRC32), string headers, JSON payload, message CRC32. */
export function eventStreamFrame(eventType: string, payload: unknown): Uint8Array {
  const headers = [
    [':event-type', eventType],
    [':content-type', 'application/json'],
    [':message-type', 'event'],
  ].map(([name, value]) => {
    const n = Buffer.from(name!);
    const v = Buffer.from(value!);
    const header = Buffer.alloc(1 + n.length + 1 + 2 + v.length);
    header.writeUInt8(n.length, 0);
    n.copy(header, 1);
    header.writeUInt8(7, 1 + n.length); // 7: string
    header.writeUInt16BE(v.length, 2 + n.length);
    v.copy(header, 4 + n.length);
    return header;
  });
  const headerBytes = Buffer.concat(headers);
  const body = Buffer.from(JSON.stringify(payload));
  const total = 12 + headerBytes.length + body.length + 4;
  const frame = Buffer.alloc(total);
  frame.writeUInt32BE(total, 0);
  frame.writeUInt32BE(headerBytes.length, 4);
  frame.writeUInt32BE(crc32(frame.subarray(0, 8)), 8);
  headerBytes.copy(frame, 12);
  body.copy(frame, 12 + headerBytes.length);
  frame.writeUInt32BE(crc32(frame.subarray(0, total - 4)), total - 4);
  return frame;
}

export function bedrockStream({ text = '', toolCalls = [] }: StreamedTurn): Uint8Array {
  const frames: Uint8Array[] = [eventStreamFrame('messageStart', { role: 'assistant' })];
  let index = 0;
  if (text !== '') {
    for (let i = 0; i < text.length; i += 4)
      frames.push(
        eventStreamFrame('contentBlockDelta', { contentBlockIndex: index, delta: { text: text.slice(i, i + 4) } }),
      );
    frames.push(eventStreamFrame('contentBlockStop', { contentBlockIndex: index }));
    index++;
  }
  for (const call of toolCalls) {
    frames.push(
      eventStreamFrame('contentBlockStart', {
        contentBlockIndex: index,
        start: { toolUse: { toolUseId: call.id, name: call.name } },
      }),
    );
    const json = JSON.stringify(call.arguments);
    for (let i = 0; i < json.length; i += 8)
      frames.push(
        eventStreamFrame('contentBlockDelta', {
          contentBlockIndex: index,
          delta: { toolUse: { input: json.slice(i, i + 8) } },
        }),
      );
    frames.push(eventStreamFrame('contentBlockStop', { contentBlockIndex: index }));
    index++;
  }
  frames.push(eventStreamFrame('messageStop', { stopReason: toolCalls.length > 0 ? 'tool_use' : 'end_turn' }));
  frames.push(
    eventStreamFrame('metadata', {
      usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 },
      metrics: { latencyMs: 1 },
    }),
  );
  return Buffer.concat(frames);
}

function stream(api: ApiName, turn: StreamedTurn): { contentType: string; body: string | Uint8Array } {
  switch (api) {
    case 'anthropic':
      return { contentType: 'text/event-stream', body: anthropicStream(turn) };
    case 'openai-chat':
      return { contentType: 'text/event-stream', body: openAIChatStream(turn) };
    case 'openai-responses':
      return { contentType: 'text/event-stream', body: responsesStream(turn) };
    case 'gemini':
      return { contentType: 'text/event-stream', body: geminiStream(turn) };
    case 'bedrock':
      return { contentType: 'application/vnd.amazon.eventstream', body: bedrockStream(turn) };
    case 'ollama':
      return { contentType: 'application/x-ndjson', body: ollamaStream(turn) };
  }
}

/**
 * Starts the server on 127.0.0.1 (free ports, HTTP/1.1 and HTTP/2). Requests past the script get a text answer
 * "done". `check` refuses requests as the real API would (its caps), before a script entry is used.
 */
export async function startApiServer(
  script: ScriptEntry[],
  check?: RequestCheck,
  /** `uploads`: where uploads are kept (a check may read it); `uploadCheck` refuses an upload. */
  { uploadCheck, uploads = [] }: { uploadCheck?: UploadCheck; uploads?: StoredUpload[] } = {},
): Promise<ApiServer> {
  const requests: ServerRequest[] = [];
  let base = '';
  const queue = [...script];
  const handle = async (
    request: IncomingMessage | Http2ServerRequest,
    response: ServerResponse | Http2ServerResponse,
  ) => {
    const path = request.url ?? '/';
    if (await handleUpload(request, response, base, uploads, uploadCheck)) return;
    const api = apiOf(path.split('?')[0] ?? path);
    if (api === undefined) {
      response
        .writeHead(404, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: `no API at ${path}` }));
      return;
    }
    const received: ServerRequest = { api, path, headers: request.headers, ...(await readBody(request)) };
    requests.push(received);
    const entry = (await check?.(received)) ?? queue.shift() ?? { text: 'done' };
    if ('drop' in entry) {
      request.socket.destroy();
      return;
    }
    if ('status' in entry) {
      const { headers, body } = errorBody(
        api,
        entry.status,
        entry.message ?? `scripted ${entry.status}`,
        entry.type,
        entry.details,
      );
      response
        .writeHead(entry.status, {
          ...headers,
          ...(entry.retryAfter !== undefined && { 'retry-after': entry.retryAfter }),
        })
        .end(body);
      return;
    }
    const { contentType, body } = stream(api, entry);
    response.writeHead(200, { 'content-type': contentType });
    response.end(body);
  };
  const fail = (response: ServerResponse | Http2ServerResponse) => (error: unknown) =>
    response.writeHead(500).end(String(error));
  const http1 = createServer((request, response) => void handle(request, response).catch(fail(response)));
  const http2 = createHttp2Server((request, response) => void handle(request, response).catch(fail(response)));
  const sessions = new Set<Http2Session>();
  http2.on('session', (session) => {
    sessions.add(session);
    session.on('close', () => sessions.delete(session));
  });
  const listen = (server: typeof http1 | typeof http2) =>
    new Promise<number>((resolve) =>
      server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
    );
  const [port, port2] = await Promise.all([listen(http1), listen(http2)]);
  base = `http://127.0.0.1:${port}`;
  const closed = (server: typeof http1 | typeof http2) =>
    new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
  return {
    url: `http://127.0.0.1:${port}`,
    http2Url: `http://127.0.0.1:${port2}`,
    requests,
    script: queue,
    uploads,
    close: async () => {
      http1.closeAllConnections();
      for (const session of sessions) session.destroy();
      await Promise.all([closed(http1), closed(http2)]);
    },
  };
}
