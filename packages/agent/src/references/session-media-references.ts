import type { FileReference } from '../types.js';
import { createMemoryMediaReferences, type MediaReferences } from './media-references.js';

/**
 * A session log's line for an upload (the `media` entry kind): the hash of the bytes uploaded and the provider's
 * reference. The log keeps one per upload, so a resumed session names the same media without uploading again.
 */
export interface MediaReferenceLine {
  type: 'media';
  /** ISO time of the upload. */
  at: string;
  sha256: string;
  reference: FileReference;
}

const PROVIDERS: ReadonlySet<string> = new Set(['anthropic', 'openai', 'gemini']);
const isProvider = (value: unknown): value is FileReference['provider'] =>
  typeof value === 'string' && PROVIDERS.has(value);
const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isIsoTime = (value: unknown) => typeof value === 'string' && !Number.isNaN(Date.parse(value));

/** The reference of a `media` line, or undefined for any other line (and for a `media` line without one). */
export function referenceOfLine(line: unknown): { sha256: string; reference: FileReference } | undefined {
  if (!isRecord(line) || line.type !== 'media' || typeof line.sha256 !== 'string') return undefined;
  if (!/^[0-9a-f]{64}$/.test(line.sha256)) return undefined;
  const { reference } = line;
  if (!isRecord(reference)) return undefined; // a `refused` line: healing's, not an upload
  const { provider, id, uri, mimeType, expiresAt } = reference;
  if (!isProvider(provider) || typeof id !== 'string' || id === '') return undefined;
  if (typeof mimeType !== 'string' || (uri !== undefined && typeof uri !== 'string')) return undefined;
  if (expiresAt !== undefined && !isIsoTime(expiresAt)) return undefined;
  return {
    sha256: line.sha256,
    reference: {
      provider,
      id,
      mimeType,
      ...(typeof uri === 'string' && { uri }),
      ...(typeof expiresAt === 'string' && { expiresAt }),
    },
  };
}

/**
 * References read from a session log's lines (the newest upload per hash and provider wins) that append a `media`
 * line for each new upload: what `runAgent({ references })` takes for a session that is resumed later.
 */
export function sessionMediaReferences({
  lines,
  append,
  now = () => new Date(),
}: {
  /** The log's lines as parsed JSON, in order; any that are not `media` lines are passed over. */
  lines: Iterable<unknown>;
  /** Writes one line to the log. */
  append: (line: MediaReferenceLine) => void | Promise<void>;
  now?: () => Date;
}): MediaReferences {
  const known: { sha256: string; reference: FileReference }[] = [];
  for (const line of lines) {
    const entry = referenceOfLine(line);
    if (entry !== undefined) known.push(entry);
  }
  const memory = createMemoryMediaReferences(known);
  return {
    get: (sha256, provider) => memory.get(sha256, provider),
    put: async (sha256, reference) => {
      await append({ type: 'media', at: now().toISOString(), sha256, reference });
      await memory.put(sha256, reference);
    },
  };
}
