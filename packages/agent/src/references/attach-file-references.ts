import type { SerializeWarning } from '../providers/types.js';
import type { Part } from '../types.js';
import type { ResolveFileReference } from './resolve-file-references.js';

/**
 * The outgoing parts of one medium with their provider references attached (`referenced`: at least one is sent by
 * reference now), and a `media-reference-failed` warning for each whose upload failed: that one stays inline.
 */
export async function attachFileReferences({
  parts,
  messageIndex,
  resolve,
  route,
  signal,
}: {
  parts: readonly Part[];
  messageIndex: number;
  resolve: ResolveFileReference;
  /** The route's name, for the warning. */
  route: string;
  signal?: AbortSignal;
}): Promise<{ parts: Part[]; referenced: boolean; warnings: SerializeWarning[] }> {
  const out: Part[] = [];
  const warnings: SerializeWarning[] = [];
  let referenced = false;
  for (const part of parts) {
    const outcome = part.type === 'text' ? undefined : await resolve(part, signal);
    if (part.type === 'text' || outcome === undefined) out.push(part);
    else if ('reference' in outcome) {
      out.push({ ...part, reference: outcome.reference });
      referenced = true;
    } else {
      out.push(part);
      warnings.push({
        type: 'media-reference-failed',
        provider: outcome.provider,
        mediaType: part.mediaType,
        messageIndex,
        message: `the upload of this ${part.mediaType} to ${route}'s file store failed (${outcome.failure}): it is sent inline`,
      });
    }
  }
  return { parts: out, referenced, warnings };
}
