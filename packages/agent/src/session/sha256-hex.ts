/** Hex SHA-256 of bytes through Web Crypto, which Node 20+, Deno, browsers and Workers all have. */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  // Web Crypto takes no view of a SharedArrayBuffer; a copy has its own ArrayBuffer, and costs less than the hash.
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes.slice()));
  let hex = '';
  for (const byte of digest) hex += byte.toString(16).padStart(2, '0');
  return hex;
}
