import type { DocumentPart, ImagePart, Message, Part, ToolCall } from '../types.js';
import { SessionError } from './session-error.js';

/** A line whose JSON does not have the shape of an entry: `E_SESSION_CORRUPT`, to which the parser adds the line. */
function shapeError(message: string): SessionError {
  return new SessionError('E_SESSION_CORRUPT', message);
}

const IMAGE_TYPES: readonly ImagePart['mediaType'][] = [
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/heic',
  'image/heif',
];
/** Hex sha256 of the bytes a base64 string encodes. */
export type HashOfBase64 = (data: string) => string;

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const SHA256_HEX = /^[0-9a-f]{64}$/;

/**
 * Validates one logged message and maps it back to the part model. `media` holds the bytes of
 * content-addressed parts seen on earlier lines, or a database's media table (sha256 → base64); inline ones
 * that claim a sha256 are checked with `hashOf` and added. Without `hashOf` (a store whose entries only
 * refer to media) an inline part with a sha256 is refused, since nothing could check its claim.
 */
export function decodeMessage(value: unknown, media: Map<string, string>, hashOf?: HashOfBase64): Message {
  const record = object(value, 'message');
  const role = record.role;
  switch (role) {
    case 'user':
      return { role: 'user', parts: parts(record.content, media, hashOf) };
    case 'assistant':
      return { role: 'assistant', text: string(record.text, 'assistant text'), toolCalls: toolCalls(record.toolCalls) };
    case 'toolResult':
      return {
        role: 'toolResult',
        toolCallId: string(record.toolCallId, 'toolCallId'),
        toolName: string(record.toolName, 'toolName'),
        parts: parts(record.content, media, hashOf),
        isError: boolean(record.isError, 'isError'),
      };
    default:
      throw shapeError(`unknown message role ${JSON.stringify(role)}`);
  }
}

function toolCalls(value: unknown): ToolCall[] {
  if (!Array.isArray(value)) throw shapeError('assistant toolCalls is not an array');
  return value.map((item) => {
    const call = object(item, 'tool call');
    const decoded: ToolCall = {
      id: string(call.id, 'tool call id'),
      name: string(call.name, 'tool call name'),
      arguments: object(call.arguments, 'tool call arguments'),
    };
    if (call.signature !== undefined) decoded.signature = string(call.signature, 'tool call signature');
    return decoded;
  });
}

function parts(value: unknown, media: Map<string, string>, hashOf: HashOfBase64 | undefined): Part[] {
  if (!Array.isArray(value)) throw shapeError('message content is not an array');
  return value.map((item) => part(item, media, hashOf));
}

function part(value: unknown, media: Map<string, string>, hashOf: HashOfBase64 | undefined): Part {
  const record = object(value, 'part');
  switch (record.type) {
    case 'text':
      return { type: 'text', text: string(record.text, 'text') };
    case 'image': {
      const mimeType = record.mimeType;
      const mediaType = IMAGE_TYPES.find((type) => type === mimeType);
      if (mediaType === undefined)
        throw shapeError(`image mimeType ${JSON.stringify(mimeType)} is not png, jpeg, gif or webp`);
      const image: ImagePart = { type: 'image', mediaType, data: mediaData(record, media, hashOf) };
      if (record.width !== undefined) image.width = positiveInteger(record.width, 'image width');
      if (record.height !== undefined) image.height = positiveInteger(record.height, 'image height');
      return image;
    }
    case 'document': {
      if (record.mimeType !== 'application/pdf')
        throw shapeError(`document mimeType ${JSON.stringify(record.mimeType)} is not application/pdf`);
      const document: DocumentPart = {
        type: 'document',
        mediaType: 'application/pdf',
        data: mediaData(record, media, hashOf),
      };
      if (record.filename !== undefined) document.filename = string(record.filename, 'document filename');
      if (record.pages !== undefined) document.pages = positiveInteger(record.pages, 'document pages');
      return document;
    }
    default:
      throw shapeError(`unknown part type ${JSON.stringify(record.type)}`);
  }
}

/** Inline base64, or the bytes an earlier line stored under `sha256`. */
function mediaData(
  record: Record<string, unknown>,
  media: Map<string, string>,
  hashOf: HashOfBase64 | undefined,
): string {
  const sha256 = record.sha256 === undefined ? undefined : string(record.sha256, 'sha256');
  if (sha256 !== undefined && !SHA256_HEX.test(sha256))
    throw shapeError(`sha256 ${JSON.stringify(sha256)} is not 64 lowercase hex digits`);
  if (record.data === undefined) {
    if (sha256 === undefined) throw shapeError(`${String(record.type)} part has neither data nor sha256`);
    const stored = media.get(sha256);
    if (stored === undefined)
      throw shapeError(`${String(record.type)} part refers to sha256 ${sha256}, which no earlier line stores`);
    return stored;
  }
  const data = string(record.data, 'media data');
  if (data.length % 4 !== 0 || !BASE64.test(data)) throw shapeError(`${String(record.type)} data is not base64`);
  if (sha256 !== undefined) {
    if (hashOf === undefined)
      throw shapeError(`${String(record.type)} part carries data and a sha256 where only references belong`);
    const actual = hashOf(data);
    if (actual !== sha256)
      throw shapeError(`${String(record.type)} data hashes to ${actual}, not the sha256 ${sha256} it claims`);
    media.set(sha256, data);
  }
  return data;
}

export function object(value: unknown, what: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw shapeError(`${what} is not a JSON object`);
  return value as Record<string, unknown>;
}

function string(value: unknown, what: string): string {
  if (typeof value !== 'string') throw shapeError(`${what} is not a string`);
  return value;
}

function boolean(value: unknown, what: string): boolean {
  if (typeof value !== 'boolean') throw shapeError(`${what} is not true or false`);
  return value;
}

function positiveInteger(value: unknown, what: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0)
    throw shapeError(`${what} is not a positive integer`);
  return value;
}
