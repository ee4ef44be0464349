import { describe, expect, it } from 'vitest';
import type { FileReference, Message } from '../types.js';
import { staleFileReference } from './stale-file-reference.js';

const anthropic: FileReference = { provider: 'anthropic', id: 'file_011CNha8', mimeType: 'image/png' };
const gemini: FileReference = {
  provider: 'gemini',
  id: 'files/abc',
  uri: 'https://generativelanguage.googleapis.com/v1beta/files/abc',
  mimeType: 'image/png',
};
const sent: Message[] = [
  { role: 'user', parts: [{ type: 'text', text: 'look' }] },
  {
    role: 'toolResult',
    toolCallId: 'c1',
    toolName: 'screenshot',
    isError: false,
    parts: [
      { type: 'image', mediaType: 'image/png', data: 'AAAA', reference: anthropic },
      { type: 'image', mediaType: 'image/png', data: 'BBBB', reference: gemini },
    ],
  },
];
/** A failed call as the live clients throw it: a message with the API's words, the status in `details`. */
const failure = (status: number, message: string) => Object.assign(new Error(message), { details: { status } });

describe('staleFileReference', () => {
  it('names the reference a 4xx error carries the id or URI of', () => {
    expect(staleFileReference(failure(400, `messages.1.content.0.source: File not found: ${anthropic.id}`), sent)).toBe(
      anthropic,
    );
    expect(staleFileReference(failure(403, `You do not have permission to access the File ${gemini.uri}`), sent)).toBe(
      gemini,
    );
    expect(staleFileReference(failure(404, `No such File object: ${anthropic.id}`), sent)).toBe(anthropic);
  });

  it("names the Gemini reference its 403 names by the file's last segment, as the File API answers a lost file", () => {
    const lost = `{"error":{"code":403,"message":"You do not have permission to access the File abc or it may not exist.","status":"PERMISSION_DENIED"}}`;
    expect(staleFileReference(failure(403, lost), sent)).toBe(gemini);
    // Only the whole segment: another file's name that starts with it is not this reference.
    expect(staleFileReference(failure(403, lost.replace('File abc', 'File abcd')), sent)).toBeUndefined();
    expect(staleFileReference(failure(403, lost.replace('File abc', 'File x-abc')), sent)).toBeUndefined();
    // A 403 for the key names no file: it stays an authentication failure.
    expect(
      staleFileReference(
        failure(403, "Method doesn't allow unregistered callers (callers without established identity)."),
        sent,
      ),
    ).toBeUndefined();
    expect(staleFileReference(failure(403, 'The caller does not have permission'), sent)).toBeUndefined();
  });

  it('is nothing without the id, on a 5xx, 413 or 429, or without a status', () => {
    expect(staleFileReference(failure(400, 'File not found'), sent)).toBeUndefined();
    expect(staleFileReference(failure(500, `upstream failed for ${anthropic.id}`), sent)).toBeUndefined();
    expect(staleFileReference(failure(413, `too large: ${anthropic.id}`), sent)).toBeUndefined();
    expect(staleFileReference(failure(429, `slow down ${anthropic.id}`), sent)).toBeUndefined();
    expect(staleFileReference(new Error(`File not found: ${anthropic.id}`), sent)).toBeUndefined();
  });
});
