// Base64 without Node's Buffer, so the agent shell runs wherever atob/btoa exist (Node 20+, Deno, browsers, Workers).

const CHUNK = 0x8000; // String.fromCharCode takes the bytes as arguments; keep each call well under engine limits.

/** Standard base64 (with padding, no data-URL prefix) of raw bytes. */
export function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += CHUNK) {
    binary += String.fromCharCode(...bytes.subarray(i, i + CHUNK));
  }
  return btoa(binary);
}

/**
 * Raw bytes of a base64 string. Accepts a `data:` URL, URL-safe alphabet, whitespace and missing padding,
 * because tools and MCP servers send all of these. Returns undefined when the text is not base64.
 */
export function base64ToBytes(text: string): Uint8Array | undefined {
  let body = text.startsWith('data:') ? text.slice(text.indexOf(',') + 1) : text;
  body = body.replace(/\s+/g, '').replace(/-/g, '+').replace(/_/g, '/');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(body) || body.length % 4 === 1) return undefined;
  body = body.replace(/=+$/, '');
  body += '='.repeat((4 - (body.length % 4)) % 4);
  const binary = atob(body);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
