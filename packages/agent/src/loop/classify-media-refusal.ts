/** Why a provider refused a request for its media, typed; what `runAgent` repairs before it sends once more. */
export type MediaRefusalCode =
  | 'E_REQUEST_TOO_LARGE' // 413, or Anthropic's `request_too_large`: the whole request is over the bytes it takes
  | 'E_TOO_MANY_IMAGES' // 400: more images than the request may carry
  | 'E_MEDIA_REFUSED'; // 400 naming one image or document block: it could not be processed or is over a limit

export interface MediaRefusal {
  code: MediaRefusalCode;
  status: number;
  /** The block the API named, as a path into the request body (`['messages', 2, 'content', 0, 'content', 1]`). */
  path?: (string | number)[];
  message: string;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;
const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/**
 * The API's own error type and message, read structurally from the SDK error: Anthropic (`error.error.type`),
 * OpenAI (`error.type`, `error.param`), Gemini (`status` in the body), Bedrock (`name`: ValidationException).
 */
function apiError(cause: unknown): { type?: string; message?: string; param?: string } {
  if (!isRecord(cause)) return {};
  const body = isRecord(cause.error) ? cause.error : undefined;
  const inner = body && isRecord(body.error) ? body.error : body;
  const type = text(inner?.type) ?? text(cause.type) ?? text(inner?.status) ?? text(cause.name);
  const message = text(inner?.message) ?? text(cause.message);
  const param = text(inner?.param) ?? text(cause.param);
  return {
    ...(type !== undefined && { type }),
    ...(message !== undefined && { message }),
    ...(param !== undefined && { param }),
  };
}

/** `messages.2.content.0.content.1…` (Anthropic, Bedrock) or `messages.[3].content.[1]` (OpenAI) as path segments. */
export function blockPath(where: string): (string | number)[] | undefined {
  const match =
    /\b(messages|contents|input)\.\[?(\d+)\]?\.(content|parts)\.\[?(\d+)\]?(?:\.(content|output)\.\[?(\d+)\]?)?/.exec(
      where,
    );
  if (!match) return undefined;
  const [, list, message, blocks, block, nested, inner] = match;
  return [list!, Number(message), blocks!, Number(block), ...(nested ? [nested, Number(inner)] : [])];
}

const MEDIA_WORDS = /\b(image|images|picture|media|document|pdf|base64|inline_?data|mime)\b/i;
const TOO_MANY = /too many (images|media|documents)|more than \d+ (images|documents)|images? per request/i;
/** Error types that say the request was refused for something else than its content (Anthropic, OpenAI, Gemini). */
const OTHER_TYPES =
  /permission|authentication|rate_limit|not_found|overloaded|billing|quota|^api_error$|UNAUTHENTICATED|PERMISSION_DENIED|RESOURCE_EXHAUSTED/i;

/**
 * Whether a failed model call refused the request for its media, and how: from the HTTP status, the API's error
 * type and the block path its message or `param` names, never from one fixed phrase alone. A 400 counts only when
 * its type is not another kind (permission, rate limit, …) and it names a content block with words about media,
 * or says there are too many images. Anything else (a media complaint naming no block) is left to the caller.
 */
export function classifyMediaRefusal(error: unknown): MediaRefusal | undefined {
  // A ModelClientError (clients/), read by shape: the loop sits below the clients and takes any ModelClient.
  if (!isRecord(error) || error.code !== 'E_BAD_REQUEST' || !isRecord(error.details)) return undefined;
  const status = typeof error.details.status === 'number' ? error.details.status : undefined;
  const api = apiError(error.details.cause);
  const message = api.message ?? text(error.message) ?? '';
  if (status === 413 || api.type === 'request_too_large')
    return { code: 'E_REQUEST_TOO_LARGE', status: status ?? 413, message };
  if (status !== 400) return undefined;
  if (api.type !== undefined && OTHER_TYPES.test(api.type)) return undefined;
  const path = blockPath(api.param ?? '') ?? blockPath(message);
  if (TOO_MANY.test(message)) return { code: 'E_TOO_MANY_IMAGES', status, message, ...(path && { path }) };
  if (path !== undefined && MEDIA_WORDS.test(message)) return { code: 'E_MEDIA_REFUSED', status, path, message };
  return undefined;
}
