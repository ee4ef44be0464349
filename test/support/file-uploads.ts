// The provider file stores the live clients upload to, as the real APIs answer them: Anthropic's Files API
// (multipart POST /v1/files, beta), OpenAI Files (multipart POST /files under the SDK's base URL) and Gemini's File
// API (the resumable protocol: a start request that answers with an upload URL, then the bytes with
// "upload, finalize"). Each upload is kept with its bytes, so a test can check what a request's references name.
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Http2ServerRequest, Http2ServerResponse } from 'node:http2';

export type UploadApi = 'anthropic' | 'openai' | 'gemini';

export interface StoredUpload {
  api: UploadApi;
  /** Anthropic/OpenAI `file_id`, Gemini's resource name (`files/…`). */
  id: string;
  /** Gemini's `fileUri`. */
  uri?: string;
  mediaType: string;
  filename: string;
  bytes: Buffer;
  sha256: string;
  /** Deleted through the provider's delete call (Anthropic beta.files.delete, OpenAI files.delete, Gemini files.delete). */
  deleted?: boolean;
  /** Gemini's `expirationTime` (48 hours on); a test sets it past to have the store lose the file. */
  expiresAt?: string;
}

/** Whether the store still holds an upload: not deleted, and not past its expiry. */
export const held = (upload: StoredUpload): boolean =>
  !upload.deleted && (upload.expiresAt === undefined || Date.parse(upload.expiresAt) > Date.now());

/**
 * Gemini's answer for a file it does not hold (deleted, expired or never made), on a files call or a generateContent
 * naming its `fileUri`: 403 PERMISSION_DENIED naming the file by the last segment of its name, not 404.
 */
export function geminiFileMissing(name: string): { status: number; message: string; body: unknown } {
  const message = `You do not have permission to access the File ${name.slice(name.lastIndexOf('/') + 1)} or it may not exist.`;
  return { status: 403, message, body: { error: { code: 403, message, status: 'PERMISSION_DENIED' } } };
}

/** Refuses an upload (status and message) or lets it through. */
export type UploadCheck = (upload: {
  api: UploadApi;
  mediaType: string;
  bytes: Buffer;
}) => { status: number; message: string } | undefined;

async function readRaw(request: IncomingMessage | Http2ServerRequest): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The parts of a multipart/form-data body: name, filename, type and bytes. */
function multipartParts(
  raw: Buffer,
  contentType: string,
): { name: string; filename?: string; type?: string; bytes: Buffer }[] {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/.exec(contentType);
  if (boundary === null) throw new Error(`not multipart: ${contentType}`);
  const delimiter = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
  const parts: { name: string; filename?: string; type?: string; bytes: Buffer }[] = [];
  let at = raw.indexOf(delimiter);
  while (at !== -1) {
    const start = at + delimiter.length;
    if (raw.subarray(start, start + 2).toString() === '--') break;
    const next = raw.indexOf(delimiter, start);
    if (next === -1) break;
    const part = raw.subarray(start + 2, next - 2); // after CRLF, before CRLF
    const split = part.indexOf('\r\n\r\n');
    const head = part.subarray(0, split).toString();
    const name = /name="([^"]*)"/.exec(head)?.[1] ?? '';
    const filename = /filename="([^"]*)"/.exec(head)?.[1];
    const type = /content-type:\s*([^\r\n]+)/i.exec(head)?.[1];
    parts.push({
      name,
      bytes: part.subarray(split + 4),
      ...(filename !== undefined && { filename }),
      ...(type !== undefined && { type }),
    });
    at = next;
  }
  return parts;
}

/** Writes a JSON answer; true, as a handled request. */
function json(response: ServerResponse | Http2ServerResponse, status: number, body: unknown, headers = {}): true {
  response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
  return true;
}

/**
 * Answers an upload request and returns true, or returns false for any other request. `base` is the server's own
 * URL (Gemini's upload URL points back at it).
 */
export async function handleUpload(
  request: IncomingMessage | Http2ServerRequest,
  response: ServerResponse | Http2ServerResponse,
  base: string,
  uploads: StoredUpload[],
  check?: UploadCheck,
): Promise<boolean> {
  const url = new URL(request.url ?? '/', base);
  const method = request.method ?? 'GET';
  const store = (upload: Omit<StoredUpload, 'sha256' | 'id' | 'uri'>, id: string, uri?: string): StoredUpload => {
    const stored = {
      ...upload,
      id,
      ...(uri !== undefined && { uri }),
      sha256: createHash('sha256').update(upload.bytes).digest('hex'),
    };
    uploads.push(stored);
    return stored;
  };
  const refusal = (api: UploadApi, mediaType: string, bytes: Buffer) => check?.({ api, mediaType, bytes });

  // Deletes, as each API answers them: a file it does not hold (or no longer) is a 404 in the API's error shape
  // (Gemini: 403 PERMISSION_DENIED).
  const deletion = /^\/(?:v1\/)?files\/([^/]+)$|^\/v1beta\/(files\/[^/]+)$/.exec(url.pathname);
  if (method === 'DELETE' && deletion !== null) {
    const gemini = deletion[2] !== undefined;
    const api: UploadApi = gemini
      ? 'gemini'
      : request.headers['anthropic-version'] !== undefined
        ? 'anthropic'
        : 'openai';
    const id = decodeURIComponent(deletion[1] ?? deletion[2]!);
    if (api === 'anthropic' && !String(request.headers['anthropic-beta'] ?? '').includes('files-api-2025-04-14'))
      return json(response, 400, {
        type: 'error',
        error: { type: 'invalid_request_error', message: 'files beta header missing' },
      });
    const stored = uploads.find((upload) => upload.api === api && upload.id === id && held(upload));
    if (stored === undefined) {
      const message = `File not found: ${id}`;
      if (api === 'anthropic')
        return json(response, 404, { type: 'error', error: { type: 'not_found_error', message } });
      if (api === 'openai')
        return json(response, 404, { error: { message, type: 'invalid_request_error', param: 'id', code: null } });
      const missing = geminiFileMissing(id);
      return json(response, missing.status, missing.body);
    }
    stored.deleted = true;
    if (api === 'anthropic') return json(response, 200, { id, type: 'file_deleted' });
    if (api === 'openai') return json(response, 200, { id, object: 'file', deleted: true });
    return json(response, 200, {});
  }

  if (method === 'POST' && (url.pathname === '/v1/files' || url.pathname === '/files')) {
    const api: UploadApi = request.headers['anthropic-version'] !== undefined ? 'anthropic' : 'openai';
    const raw = await readRaw(request);
    const parts = multipartParts(raw, String(request.headers['content-type']));
    const file = parts.find((part) => part.name === 'file');
    if (file === undefined) return json(response, 400, { error: { message: 'no file part' } });
    const mediaType = file.type ?? 'application/octet-stream';
    const refused = refusal(api, mediaType, file.bytes);
    if (refused !== undefined) {
      json(response, refused.status, { type: 'error', error: { type: 'api_error', message: refused.message } });
      return true;
    }
    if (api === 'anthropic') {
      if (!String(request.headers['anthropic-beta'] ?? '').includes('files-api-2025-04-14'))
        return json(response, 400, {
          type: 'error',
          error: { type: 'invalid_request_error', message: 'files beta header missing' },
        });
      const stored = store(
        { api, mediaType, filename: file.filename ?? 'file', bytes: file.bytes },
        `file_${uploads.length + 1}`,
      );
      json(response, 200, {
        id: stored.id,
        type: 'file',
        filename: stored.filename,
        mime_type: mediaType,
        size_bytes: file.bytes.length,
        created_at: new Date().toISOString(),
        downloadable: false,
      });
      return true;
    }
    const purpose = parts.find((part) => part.name === 'purpose')?.bytes.toString();
    // The purpose each kind is documented with: `vision` for an image an `input_image.file_id` names (the images and
    // vision guide's upload), `user_data` for a PDF an `input_file` names (the file inputs guide).
    const wanted = mediaType.startsWith('image/') ? 'vision' : 'user_data';
    if (purpose !== wanted)
      return json(response, 400, {
        error: {
          message: `Invalid purpose ${JSON.stringify(purpose)} for a ${mediaType} file: expected ${wanted}.`,
          type: 'invalid_request_error',
          param: 'purpose',
          code: null,
        },
      });
    const stored = store(
      { api, mediaType, filename: file.filename ?? 'file', bytes: file.bytes },
      `file-${uploads.length + 1}`,
    );
    json(response, 200, {
      id: stored.id,
      object: 'file',
      bytes: file.bytes.length,
      created_at: Math.floor(Date.now() / 1000),
      filename: stored.filename,
      purpose,
      status: 'processed',
    });
    return true;
  }

  if (method === 'POST' && url.pathname.startsWith('/upload/') && url.pathname.endsWith('/files')) {
    const command = String(request.headers['x-goog-upload-command'] ?? '');
    if (command === 'start') {
      const start = JSON.parse((await readRaw(request)).toString() || '{}') as {
        file?: { mimeType?: string; displayName?: string };
      };
      const session = encodeURIComponent(JSON.stringify(start.file ?? {}));
      response
        .writeHead(200, {
          'x-goog-upload-url': `${base}${url.pathname}?upload_id=${session}`,
          'x-goog-upload-status': 'active',
        })
        .end();
      return true;
    }
    if (command.includes('finalize')) {
      const meta = JSON.parse(url.searchParams.get('upload_id') ?? '{}') as { mimeType?: string; displayName?: string };
      const bytes = await readRaw(request);
      const mediaType = meta.mimeType ?? 'application/octet-stream';
      const refused = refusal('gemini', mediaType, bytes);
      if (refused !== undefined) {
        json(
          response,
          refused.status,
          { error: { code: refused.status, message: refused.message, status: 'INTERNAL' } },
          {
            'x-goog-upload-status': 'final',
          },
        );
        return true;
      }
      const name = `files/upload-${uploads.length + 1}`;
      const stored = store(
        { api: 'gemini', mediaType, filename: meta.displayName ?? name, bytes },
        name,
        `${base}/v1beta/${name}`,
      );
      const created = new Date();
      stored.expiresAt = new Date(created.getTime() + 48 * 3600 * 1000).toISOString();
      json(
        response,
        200,
        {
          file: {
            name: stored.id,
            displayName: stored.filename,
            mimeType: mediaType,
            sizeBytes: String(bytes.length),
            createTime: created.toISOString(),
            expirationTime: stored.expiresAt,
            sha256Hash: createHash('sha256').update(bytes).digest('base64'),
            uri: stored.uri,
            state: 'ACTIVE',
            source: 'UPLOADED',
          },
        },
        { 'x-goog-upload-status': 'final' },
      );
      return true;
    }
  }
  return false;
}
