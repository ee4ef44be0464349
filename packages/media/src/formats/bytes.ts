/** The parts, one after another, in one new buffer. */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/** The bytes of `ranges` ([start, end) pairs, in order) of `bytes`, joined: a file with other parts cut out. */
export function joinRanges(bytes: Uint8Array, ranges: readonly (readonly [number, number])[]): Uint8Array {
  return concatBytes(ranges.map(([start, end]) => bytes.subarray(start, end)));
}
