// Local stand-ins for the caps the real APIs enforce on a whole request, as request checks for the API server
// (`startApiServer(script, check)`): what a request over them gets back, with the API's status, error type and
// message shape, so a client sees what it would in production.
import sharp from 'sharp';
import type { ErrorEntry, RequestCheck, ServerRequest } from './api-server.js';
import { geminiFileMissing, held, type StoredUpload } from './file-uploads.js';

/** An image of the request: its base64, or (a Files API source) the id of an upload. */
type WireImage = { path: string; data: string } | { path: string; fileId: string };

/** Every image source of an Anthropic body (base64 or file), with the path the API names in its errors. */
function anthropicImages(body: unknown): WireImage[] {
  const images: WireImage[] = [];
  const visit = (blocks: unknown, path: string) => {
    if (!Array.isArray(blocks)) return;
    blocks.forEach(
      (block: { type?: string; source?: { type?: string; data?: string; file_id?: string }; content?: unknown }, i) => {
        if (block?.type === 'image' && block.source?.type === 'base64' && typeof block.source.data === 'string')
          images.push({ path: `${path}.${i}.source.base64.data`, data: block.source.data });
        if (block?.type === 'image' && block.source?.type === 'file' && typeof block.source.file_id === 'string')
          images.push({ path: `${path}.${i}.source.file.file_id`, fileId: block.source.file_id });
        if (block?.type === 'tool_result') visit(block.content, `${path}.${i}.content`);
      },
    );
  };
  const messages = (body as { messages?: Array<{ content?: unknown }> }).messages ?? [];
  messages.forEach((message, i) => visit(message.content, `messages.${i}.content`));
  return images;
}

const invalid = (message: string): ErrorEntry => ({ status: 400, type: 'invalid_request_error', message });

/**
 * Anthropic's Messages API caps (docs.claude.com, "Request size limits" and "Vision"): 32 MB per request (413
 * `request_too_large`), 100 images per request, 5 MB of base64 per image, and no side over 2000 px once a request
 * holds more than 20 images (400 `invalid_request_error` naming the block). Images named by a Files API `file_id`
 * count as images; with `uploads`, an id no upload has is refused (as the API does) and the 2000 px rule reads the
 * uploaded bytes.
 */
export function anthropicCapsWith(uploads?: readonly StoredUpload[]): RequestCheck {
  return async (request: ServerRequest) => {
    if (request.api !== 'anthropic') return undefined;
    if (request.bytes > 32_000_000)
      return {
        status: 413,
        type: 'request_too_large',
        message: 'Request exceeds the maximum allowed number of bytes.',
      };
    const images = anthropicImages(request.body);
    if (images.length > 100) return invalid(`messages: Too many images: ${images.length} > 100 maximum.`);
    for (const image of images) {
      let bytes: Buffer | undefined;
      if ('data' in image) {
        if (image.data.length > 5_242_880)
          return invalid(`${image.path}: image exceeds 5 MB maximum: ${image.data.length} bytes > 5242880 bytes`);
        bytes = Buffer.from(image.data, 'base64');
      } else if (uploads !== undefined) {
        const upload = uploads.find(
          (stored) => stored.api === 'anthropic' && stored.id === image.fileId && !stored.deleted,
        );
        if (upload === undefined) return invalid(`${image.path}: File not found: ${image.fileId}`);
        bytes = upload.bytes;
      }
      if (images.length > 20 && bytes !== undefined) {
        const { width = 0, height = 0 } = await sharp(bytes).metadata();
        if (Math.max(width, height) > 2000)
          return invalid(
            `${image.path}: At least one of the image dimensions exceed max allowed size for many-image requests: 2000 pixels`,
          );
      }
    }
    return undefined;
  };
}

export const anthropicCaps: RequestCheck = anthropicCapsWith();

/** Gemini's inline-data cap (ai.google.dev, "Passing images to Gemini"): a request over 20 MB is refused with 400. */
export const geminiCaps: RequestCheck = (request: ServerRequest) =>
  request.api === 'gemini' && request.bytes > 20_000_000
    ? { status: 400, message: `Request payload size exceeds the limit: 20000000 bytes.` }
    : undefined;

/** Every `fileData.fileUri` of a Gemini body (in a turn or inside a function response). */
function geminiFileUris(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(geminiFileUris);
  if (typeof value !== 'object' || value === null) return [];
  const own =
    'fileData' in value &&
    typeof value.fileData === 'object' &&
    value.fileData !== null &&
    'fileUri' in value.fileData &&
    typeof value.fileData.fileUri === 'string'
      ? [value.fileData.fileUri]
      : [];
  return [...own, ...Object.values(value).flatMap(geminiFileUris)];
}

/**
 * Gemini's caps, and with `uploads` a `fileUri` the store does not hold (deleted, expired or never made) is refused
 * as the API does: 403 PERMISSION_DENIED "You do not have permission to access the File abc or it may not exist".
 */
export function geminiCapsWith(uploads: readonly StoredUpload[]): RequestCheck {
  return (request: ServerRequest) => {
    const capped = geminiCaps(request);
    if (capped !== undefined || request.api !== 'gemini') return capped;
    const unknown = geminiFileUris(request.body).find(
      (uri) => !uploads.some((upload) => upload.api === 'gemini' && upload.uri === uri && held(upload)),
    );
    if (unknown === undefined) return undefined;
    const { status, message } = geminiFileMissing(new URL(unknown).pathname);
    return { status, message };
  };
}

/**
 * A gateway in front of the API that takes at most `maxBytes` per request (far under the providers' own caps): over
 * it, 413 `request_too_large` as Anthropic words it, which each SDK reports with the status.
 */
export function gatewayUnder(maxBytes: number): RequestCheck {
  return (request) =>
    request.bytes > maxBytes
      ? { status: 413, type: 'request_too_large', message: 'Request exceeds the maximum allowed number of bytes.' }
      : undefined;
}
