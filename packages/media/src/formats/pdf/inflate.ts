// Flate (zlib) streams of a PDF, inflated the way the PDF checks need: bounded, and with zlib's complaint.
// pako ships no types: any program that compiles this file (each package's .d.ts build too) needs ours.
/// <reference path="./pako.d.ts" />
import pako from 'pako';
import { concatBytes } from '../bytes.js';

/** zlib's Z_BUF_ERROR: the data stops before its end. Not a complaint: qpdf and viewers read what is there. */
const DATA_STOPS_EARLY = -5;
const OVER_LIMIT = new Error('inflate limit reached');

export interface Inflated {
  /** The output, when it was asked for and stayed within the limit. */
  bytes: Uint8Array | undefined;
  /** Output bytes produced before inflating stopped. */
  produced: number;
  /** More than the limit came out; the rest was not inflated. */
  overLimit: boolean;
  /** zlib's message when it found the data damaged; undefined when it did not. */
  error: string | undefined;
}

/**
 * Inflates `data` 64 KB at a time, stopping once more than `limit` bytes come out; keeps them when `keep` is
 * set, and hands each piece to `read` (when given) as it comes out.
 */
export function inflateFlate(
  data: Uint8Array,
  limit: number,
  keep: boolean,
  read?: (chunk: Uint8Array) => void,
): Inflated {
  const inflater = new pako.Inflate({ chunkSize: 64 * 1024 });
  const chunks: Uint8Array[] = [];
  let produced = 0;
  inflater.onData = (chunk) => {
    produced += chunk.length;
    if (produced > limit) throw OVER_LIMIT;
    if (keep) chunks.push(chunk);
    read?.(chunk);
  };
  try {
    inflater.push(data, true);
    // pako drops what it inflated since its last full chunk when zlib stops with an error (a wrong
    // checksum, data that stops early): qpdf reads those bytes, and so must the checks.
    const { strm } = inflater;
    if (inflater.err !== 0 && strm.output && strm.next_out > 0) inflater.onData(strm.output.slice(0, strm.next_out));
  } catch (error) {
    if (error !== OVER_LIMIT) throw error;
    return { bytes: undefined, produced, overLimit: true, error: undefined };
  }
  const damaged = inflater.err !== 0 && inflater.err !== DATA_STOPS_EARLY;
  return {
    bytes: keep ? concatBytes(chunks) : undefined,
    produced,
    overLimit: false,
    error: damaged ? inflater.msg || `error ${inflater.err}` : undefined,
  };
}
