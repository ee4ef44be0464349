// CRC-32 (ISO 3309, the polynomial PNG and zlib use), slicing by 16: sixteen table lookups per 16 bytes,
// the bytes read four at a time through an Int32Array over the aligned part (indexing a Uint8Array byte by
// byte was half the cost). A 366 KB screenshot PNG's chunks are all checked in about 0.2 ms, where slicing
// by 8 over single bytes took 0.4–0.5 ms (Node 22, measured).

const TABLES = buildTables();

/** Whether an Int32Array reads bytes little-endian, as the table-driven loop wants (every current JS runtime). */
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

function buildTables(): Int32Array {
  const tables = new Int32Array(16 * 256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    tables[n] = c;
  }
  // tables[t·256 + n]: the CRC of byte n followed by t zero bytes.
  for (let n = 0; n < 256; n++) {
    let c = tables[n]!;
    for (let t = 1; t < 16; t++) {
      c = tables[c & 0xff]! ^ (c >>> 8);
      tables[t * 256 + n] = c;
    }
  }
  return tables;
}

/** CRC-32 of `bytes[start, end)`. */
export function crc32(bytes: Uint8Array, start = 0, end = bytes.length): number {
  const t = TABLES;
  let crc = -1;
  let i = start;
  // Byte by byte up to a 4-byte boundary of the buffer (an Int32Array must start on one).
  while (i < end && (bytes.byteOffset + i) & 3) crc = t[(crc ^ bytes[i++]!) & 0xff]! ^ (crc >>> 8);
  if (LITTLE_ENDIAN && end - i >= 16) {
    const words = new Int32Array(bytes.buffer, bytes.byteOffset + i, ((end - i) >> 4) << 2);
    for (let w = 0; w < words.length; w += 4) {
      const a = crc ^ words[w]!;
      const b = words[w + 1]!;
      const c = words[w + 2]!;
      const d = words[w + 3]!;
      crc =
        t[0xf00 + (a & 0xff)]! ^
        t[0xe00 + ((a >>> 8) & 0xff)]! ^
        t[0xd00 + ((a >>> 16) & 0xff)]! ^
        t[0xc00 + (a >>> 24)]! ^
        t[0xb00 + (b & 0xff)]! ^
        t[0xa00 + ((b >>> 8) & 0xff)]! ^
        t[0x900 + ((b >>> 16) & 0xff)]! ^
        t[0x800 + (b >>> 24)]! ^
        t[0x700 + (c & 0xff)]! ^
        t[0x600 + ((c >>> 8) & 0xff)]! ^
        t[0x500 + ((c >>> 16) & 0xff)]! ^
        t[0x400 + (c >>> 24)]! ^
        t[0x300 + (d & 0xff)]! ^
        t[0x200 + ((d >>> 8) & 0xff)]! ^
        t[0x100 + ((d >>> 16) & 0xff)]! ^
        t[d >>> 24]!;
    }
    i += words.length * 4;
  }
  for (; i < end; i++) crc = t[(crc ^ bytes[i]!) & 0xff]! ^ (crc >>> 8);
  return (crc ^ -1) >>> 0;
}
