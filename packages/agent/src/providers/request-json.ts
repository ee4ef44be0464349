import { bytesToBase64 } from '../base64.js';

/**
 * A request body as JSON, byte arrays as base64 strings: Bedrock's `source.bytes` the way the Converse JSON wire
 * format carries them (every other route's body holds base64 strings already). `JSON.stringify` alone would write
 * a `Uint8Array` as an object of numbered keys, which no API reads.
 */
export function requestJson(value: unknown, space?: number): string {
  return JSON.stringify(
    value,
    (_key, item: unknown) => (item instanceof Uint8Array ? bytesToBase64(item) : item),
    space,
  );
}
