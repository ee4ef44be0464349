import type { ProviderName } from './route/capabilities.js';
import { requestJson } from './providers/request-json.js';
import { serialize } from './providers/serialize.js';
import type { SerializeInput } from './providers/types.js';

/** UTF-8 bytes of a string, counted without encoding it (a request body is tens of megabytes of base64). */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      bytes += 4; // a surrogate pair: one code point of four bytes
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * Bytes of the request body `serialize` writes for `provider`, as JSON on the wire: base64 media (4/3 of their
 * raw bytes), the text, the JSON around them, the system prompt and the tools. The model id and sampling settings
 * a client adds are a few hundred bytes more; the budget leaves room for them.
 */
export function requestBytes(provider: ProviderName, input: SerializeInput): number {
  return utf8Length(requestJson(serialize(provider, input).body));
}
