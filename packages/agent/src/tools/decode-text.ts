/** How much of the start is inspected to tell text from binary. */
const SAMPLE_BYTES = 8192;

/**
 * The file as text, or `undefined` when it is binary: a NUL byte in the first 8 KB, or more than 2 % of
 * undecodable sequences there. Byte-order marks pick UTF-16; otherwise UTF-8, with a stray Latin-1 byte
 * shown as U+FFFD rather than refusing a whole log file.
 */
export function decodeText(bytes: Uint8Array): string | undefined {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  const sample = bytes.subarray(0, SAMPLE_BYTES);
  if (sample.includes(0)) return undefined;
  // `stream: true` holds back a multi-byte character cut by the sample's end instead of counting it as garbage.
  const decodedSample = new TextDecoder('utf-8').decode(sample, { stream: sample.length < bytes.length });
  let replacements = 0;
  for (const char of decodedSample) if (char === '\uFFFD') replacements++;
  if (replacements > Math.max(1, decodedSample.length * 0.02)) return undefined;
  return new TextDecoder('utf-8').decode(bytes);
}
