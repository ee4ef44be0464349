import { PRESETS, type PresetName } from '@glimpse/media';
import { cachedFit, refitSmaller, type FitCache, type Target } from './fit-image.js';
import { fitRequestBudget, type MediaSlot } from './fit-request-budget.js';
import type { SerializeWarning } from './providers/types.js';
import { formatBytes } from './tools/format-bytes.js';
import type { Part } from './types.js';

export interface FitResultBytesInput {
  /** A tool result's parts, media fitted to `preset` already. */
  parts: readonly Part[];
  preset: PresetName;
  /** Most bytes the result may take as its host measures it (Claude Desktop: 1,048,576 of JSON). */
  maxBytes: number;
  /** Bytes of the result the host receives for these parts (its JSON, base64 included). */
  measure: (parts: Part[]) => number;
  cache?: FitCache;
}

export interface FittedResult {
  parts: Part[];
  /** `media-refitted` for each image sent smaller, `media-omitted` (`result-too-large`) for each left out. */
  warnings: SerializeWarning[];
  bytes: number;
}

/** What an MCP host adds around a result (the JSON-RPC envelope, its id). */
const ENVELOPE = 4_096;

/**
 * One tool result kept under a host's byte cap by fitting its images smaller (quality, then size, down to the
 * legible floor: the same steps as a request's budget, `fitRequestBudget`), never by cutting base64; only what no
 * floor lets in becomes a placeholder that says to view it alone.
 */
export async function fitResultBytes({
  parts,
  preset,
  maxBytes,
  measure,
  cache,
}: FitResultBytesInput): Promise<FittedResult> {
  const slots: MediaSlot[] = [];
  const pieces = parts.map((part) => {
    if (part.type === 'text') return part;
    const slot: MediaSlot = { source: part, messageIndex: 0, newest: true, sent: [part], warnings: [], settled: false };
    slots.push(slot);
    return slot;
  });
  const assemble = () => pieces.flatMap((piece) => ('source' in piece ? piece.sent : [piece]));
  const limits = PRESETS[preset];
  const target: Target = {
    preset,
    maxEdge: limits.maxEdge,
    maxBytes: limits.maxBytes,
    accepts: limits.accepts,
    why: `to keep the tool result under ${formatBytes(maxBytes)}`,
    forBudget: true,
  };
  const fit = cachedFit(cache);
  const bytes = await fitRequestBudget({
    slots,
    cap: maxBytes,
    headroom: ENVELOPE,
    omitReason: 'result-too-large',
    measure: () => measure(assemble()),
    refit: (slot, maxBase64Bytes) => refitSmaller(slot, maxBase64Bytes, target, fit),
  });
  return { parts: assemble(), warnings: slots.flatMap((slot) => slot.warnings), bytes };
}
