/** Why a provider refused a request for its media, typed; what `runAgent` repairs before it sends once more. */
export type MediaRefusalCode =
  | 'E_REQUEST_TOO_LARGE' // 413, Anthropic's `request_too_large`, Gemini's 400 over its inline bytes: the whole request
  | 'E_TOO_MANY_IMAGES' // 400: more images than the request may carry
  | 'E_MEDIA_REFUSED'; // 400 about one image or document: it could not be processed or is over a limit

export interface MediaRefusal {
  code: MediaRefusalCode;
  status: number;
  /**
   * The block the API named, as a path into the request body (`['messages', 2, 'content', 0, 'content', 1]`);
   * absent when the API named none.
   */
  path?: (string | number)[];
  message: string;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;
const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/**
 * The API's own error type and message, read structurally from the SDK error: Anthropic (`error.error.type`),
 * OpenAI (`error.type`, `error.param`), Gemini (@google/genai's ApiError, whose message is the JSON body:
 * `{"error":{"code":400,"message":…,"status":"INVALID_ARGUMENT","details":[{"fieldViolations":[{"field":…}]}]}}`),
 * Bedrock (the AWS SDK's exception `name`, ValidationException, and the body's `message`).
 */
function apiError(cause: unknown): { type?: string; message?: string; param?: string } {
  if (!isRecord(cause)) return {};
  const body = isRecord(cause.error) ? cause.error : googleBody(cause.message);
  const inner = body && isRecord(body.error) ? body.error : body;
  const type = text(inner?.type) ?? text(cause.type) ?? text(inner?.status) ?? text(cause.name);
  const message = text(inner?.message) ?? text(cause.message);
  const param = text(inner?.param) ?? text(cause.param) ?? fieldViolation(inner?.details);
  return {
    ...(type !== undefined && { type }),
    ...(message !== undefined && { message }),
    ...(param !== undefined && { param }),
  };
}

/** @google/genai throws `ApiError` with the response body, JSON-encoded, as its message (its throwErrorIfNotOK). */
function googleBody(message: unknown): Record<string, unknown> | undefined {
  if (typeof message !== 'string' || !message.startsWith('{')) return undefined;
  try {
    const parsed: unknown = JSON.parse(message);
    return isRecord(parsed) && isRecord(parsed.error) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** The first field a google.rpc.BadRequest names (`details[].fieldViolations[].field`: `contents[2].parts[1]…`). */
function fieldViolation(details: unknown): string | undefined {
  if (!Array.isArray(details)) return undefined;
  for (const detail of details) {
    const violations = isRecord(detail) && Array.isArray(detail.fieldViolations) ? detail.fieldViolations : [];
    for (const violation of violations) {
      const field = isRecord(violation) ? text(violation.field) : undefined;
      if (field !== undefined) return field;
    }
  }
  return undefined;
}

/**
 * A block path as segments, up to its deepest index: `messages.2.content.0.content.1.source…` (Anthropic, and
 * Bedrock relaying the model's own errors), `messages.[3].content.[1]` (OpenAI's `param`),
 * `contents[2].parts[0].function_response.parts[1]` (Gemini), `messages.1.member.content.2.member.image` (Bedrock's
 * own validation: its `member` segments are dropped).
 */
export function blockPath(where: string): (string | number)[] | undefined {
  const match = /\b(?:messages|contents|input)(?:\.\[?\d+\]?|\[\d+\]|\.[A-Za-z_]+)+/.exec(where);
  if (!match) return undefined;
  const segments = (match[0].match(/[A-Za-z_]+|\d+/g) ?? [])
    .filter((segment) => segment !== 'member')
    .map((segment) => (/^\d+$/.test(segment) ? Number(segment) : segment));
  let last = -1;
  segments.forEach((segment, index) => {
    if (typeof segment === 'number') last = index;
  });
  // The message list and its index, then a block list and its index at least: a block, not a whole message.
  return last >= 3 && typeof segments[1] === 'number' ? segments.slice(0, last + 1) : undefined;
}

const MEDIA_WORDS = /\b(image|images|picture|media|document|pdf|base64|inline_?data|mime)\b/i;
const TOO_MANY = /too many (images|media|documents)|more than \d+ (images|documents)|images? per request/i;
/**
 * Gemini answers a request over its inline bytes with a 400 INVALID_ARGUMENT, not a 413: "Request payload size
 * exceeds the limit: 20971520 bytes." (as reported in MaKTaiL/gemini-srt-translator#63, google-gemini's
 * generative-ai-android#26 with the 4 MB limit of the time).
 */
const PAYLOAD_TOO_LARGE = /payload size exceeds the limit/i;
/** The invalid-request types of the four APIs; a complaint about media that names no block counts only under one. */
const INVALID_REQUEST = /^(invalid_request_error|INVALID_ARGUMENT|ValidationException)$/;
/** Error types that say the request was refused for something else than its content (Anthropic, OpenAI, Gemini). */
const OTHER_TYPES =
  /permission|authentication|rate_limit|not_found|overloaded|billing|quota|^api_error$|UNAUTHENTICATED|PERMISSION_DENIED|RESOURCE_EXHAUSTED/i;

/**
 * Whether a failed model call refused the request for its media, and how: from the HTTP status, the API's error
 * type and the block path its message, `param` or field violations name, never from one fixed phrase alone. A 400
 * counts only when its type is not another kind (permission, rate limit, …) and it names a content block with words
 * about media, or says there are too many images. A complaint about media that names no block (Gemini's "Unable to
 * process input image", gemini-cli#5064; Anthropic's bare "Could not process image", claude-code#1747) counts only
 * under an invalid-request type and has no `path`: the repair then needs the one medium the request added.
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
  if (api.type === 'INVALID_ARGUMENT' && PAYLOAD_TOO_LARGE.test(message))
    return { code: 'E_REQUEST_TOO_LARGE', status, message };
  const path = blockPath(api.param ?? '') ?? blockPath(message);
  if (TOO_MANY.test(message)) return { code: 'E_TOO_MANY_IMAGES', status, message, ...(path && { path }) };
  if (!MEDIA_WORDS.test(message)) return undefined;
  if (path !== undefined) return { code: 'E_MEDIA_REFUSED', status, path, message };
  return api.type !== undefined && INVALID_REQUEST.test(api.type)
    ? { code: 'E_MEDIA_REFUSED', status, message }
    : undefined;
}
