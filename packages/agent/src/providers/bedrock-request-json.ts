import { base64ToBytes } from '../base64.js';
import type { BedrockRequestBody } from './bedrock.js';

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function fail(where: string, what: string): never {
  throw new TypeError(`Not a Bedrock request in its JSON form: ${where} ${what}. Pass the JSON that glimpse prepare --provider bedrock prints (or requestJson of a serializeBedrock body).`);
}

/** The media block kinds whose `source.bytes` the JSON wire format writes as base64. */
const MEDIA_KINDS = ['image', 'document', 'video'] as const;

/** One content block with its media bytes decoded; text, toolUse and the rest pass as they are. */
function decodeBlock(block: unknown, where: string): Record<string, unknown> {
  if (!isRecord(block)) fail(where, 'is not an object');
  const out: Record<string, unknown> = { ...block };
  for (const kind of MEDIA_KINDS) {
    const media = block[kind];
    if (media === undefined) continue;
    if (!isRecord(media) || !isRecord(media.source)) fail(`${where}.${kind}`, 'has no source');
    const bytes = media.source.bytes;
    if (bytes === undefined || bytes instanceof Uint8Array) continue; // an S3 location, or already bytes
    if (typeof bytes !== 'string') fail(`${where}.${kind}.source.bytes`, 'is neither a base64 string nor bytes');
    const decoded = base64ToBytes(bytes);
    if (decoded === undefined) fail(`${where}.${kind}.source.bytes`, 'is not valid base64');
    out[kind] = { ...media, source: { ...media.source, bytes: decoded } };
  }
  const result = block.toolResult;
  if (result !== undefined) {
    if (!isRecord(result) || !Array.isArray(result.content)) fail(`${where}.toolResult`, 'has no content list');
    out.toolResult = { ...result, content: result.content.map((item, i) => decodeBlock(item, `${where}.toolResult.content[${i}]`)) };
  }
  return out;
}

/**
 * Turns the JSON of a Bedrock request (what `glimpse prepare --provider bedrock` prints: media bytes as base64, as
 * in the Converse JSON wire format) back into `ConverseCommand` input, media bytes as `Uint8Array`s.
 *
 * The SDK base64-encodes `source.bytes` itself: handed the printed strings directly, it encodes them a second
 * time without an error, and the model receives text where the image was. Accepts the JSON text or the parsed
 * object; a `provider` key other than `bedrock` is refused, and so is a media block whose bytes are not base64.
 * Every other key (`modelId`, `inferenceConfig`, … added to the printed JSON) is kept as it is.
 */
export function bedrockRequestFromJson(json: string | unknown): BedrockRequestBody {
  const parsed: unknown = typeof json === 'string' ? JSON.parse(json) : json;
  if (!isRecord(parsed)) fail('the value', 'is not an object');
  const { provider, messages, ...rest } = parsed;
  if (provider !== undefined && provider !== 'bedrock') fail('"provider"', `is ${JSON.stringify(provider)}`);
  if (!Array.isArray(messages)) fail('"messages"', 'is not a list');
  const decoded = messages.map((message, m) => {
    if (!isRecord(message) || !Array.isArray(message.content)) fail(`messages[${m}]`, 'has no content list');
    if (message.role !== 'user' && message.role !== 'assistant') fail(`messages[${m}].role`, 'is neither "user" nor "assistant"');
    return { ...message, role: message.role, content: message.content.map((block, b) => decodeBlock(block, `messages[${m}].content[${b}]`)) };
  });
  // Only the media bytes are this function's business; the API checks every other field, as it would from JSON.
  const body = { ...rest, messages: decoded };
  return body as unknown as BedrockRequestBody;
}
