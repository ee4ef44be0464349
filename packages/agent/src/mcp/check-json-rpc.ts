import {
  CallToolRequestSchema,
  ErrorCode,
  InitializeRequestSchema,
  JSONRPCMessageSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js';

/** A JSON-RPC error response; `id` is null when the request's own id could not be read. */
export interface JsonRpcErrorResponse {
  jsonrpc: '2.0';
  id: string | number | null;
  error: { code: number; message: string };
}

/** What one incoming JSON-RPC text is: a message for the server, or the error response to send instead. */
export type CheckedJsonRpc = { message: JSONRPCMessage } | { reply: JsonRpcErrorResponse };

// The requests this server answers, each with the SDK's schema for its params. Other methods reach the SDK,
// which answers -32601 (method not found) itself.
const REQUEST_SCHEMAS = {
  initialize: InitializeRequestSchema,
  ping: PingRequestSchema,
  'tools/list': ListToolsRequestSchema,
  'tools/call': CallToolRequestSchema,
} as const;

const isServedMethod = (method: string): method is keyof typeof REQUEST_SCHEMAS =>
  Object.hasOwn(REQUEST_SCHEMAS, method);

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function errorResponse(id: unknown, code: number, message: string): { reply: JsonRpcErrorResponse } {
  const usable = typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
  return { reply: { jsonrpc: '2.0', id: usable, error: { code, message } } };
}

/** The first problem a zod parse found, on one line: where, then what. */
function firstIssue(error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] }): string {
  const issue = error.issues[0];
  if (issue === undefined) return 'invalid';
  const where = issue.path.map((key) => (typeof key === 'number' ? `[${key}]` : `.${String(key)}`)).join('');
  return `${where === '' ? 'the request' : where.slice(1)}: ${issue.message.split('\n')[0]}`;
}

/**
 * Checks one JSON-RPC text before the SDK sees it, so that every malformed input gets the answer JSON-RPC 2.0
 * prescribes: -32700 for text that is not JSON, -32600 for JSON that is not a request, notification or response
 * (batches included: MCP has none), -32602 with a one-line reason for a known method with bad params.
 */
export function checkJsonRpc(text: string): CheckedJsonRpc {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return errorResponse(null, ErrorCode.ParseError, 'Parse error: the message is not valid JSON.');
  }
  if (Array.isArray(value))
    return errorResponse(
      null,
      ErrorCode.InvalidRequest,
      'Invalid Request: JSON-RPC batches are not supported; send one message at a time.',
    );
  const id = isRecord(value) ? value.id : undefined;
  const parsed = JSONRPCMessageSchema.safeParse(value);
  if (!parsed.success) {
    const why = !isRecord(value)
      ? 'a JSON-RPC message is an object'
      : value.jsonrpc !== '2.0'
        ? '"jsonrpc" must be "2.0"'
        : firstIssue(parsed.error);
    return errorResponse(id, ErrorCode.InvalidRequest, `Invalid Request: ${why}.`);
  }
  const message = parsed.data;
  if ('method' in message && 'id' in message && isServedMethod(message.method)) {
    const request = REQUEST_SCHEMAS[message.method].safeParse({ method: message.method, params: message.params });
    if (!request.success)
      return errorResponse(
        message.id,
        ErrorCode.InvalidParams,
        `Invalid params for ${message.method}: ${firstIssue(request.error)}.`,
      );
  }
  return { message };
}
