import type { EstimateOptions } from '../compaction/estimate-tokens.js';
import { referenceProvider, takesFileReference } from '../providers/file-reference.js';
import type { MediaReferences } from '../references/media-references.js';
import { requestBytes } from '../request-bytes.js';
import { resolveRoute } from '../route/resolve-route.js';
import { sha256OfBase64 } from '../session/content-address.js';
import { formatBytes } from '../tools/format-bytes.js';
import type { Message, Part } from '../types.js';

/**
 * The byte meter beside the token one: the messages sent as one request on a route, serialized as glimpse sends
 * them before fitting (base64 and JSON included), against the route's bytes per request. The `fixed` row has no
 * route of its own. With `references` (a log's `media` lines), a medium uploaded to the route's provider counts at
 * its reference's size, as runAgent sends it ("N by reference" says how many); other providers' count inline.
 */
export function requestMeter(
  messages: readonly Message[],
  options: EstimateOptions,
  references?: MediaReferences,
): string {
  if (options.images === 'fixed') return '—';
  const route = resolveRoute({
    provider: options.provider,
    ...(options.model !== undefined && { model: options.model }),
  });
  const provider = referenceProvider(route.provider);
  let referenced = 0;
  const withReference = (part: Part): Part => {
    if (part.type === 'text' || provider === undefined || references === undefined) return part;
    if (!takesFileReference(route.provider, part)) return part; // e.g. images on Chat Completions: inline
    const reference = references.get(sha256OfBase64(part.data), provider);
    if (reference === undefined) return part;
    referenced++;
    return { ...part, reference };
  };
  const sent = messages.map((message) =>
    message.role === 'assistant' ? message : { ...message, parts: message.parts.map(withReference) },
  );
  const bytes = requestBytes(options.provider, { messages: sent, route });
  const label = referenced > 0 ? `, ${referenced} by reference` : '';
  const cap = route.media.limits.requestBytes;
  if (cap === undefined) return `${formatBytes(bytes)} (no cap${label})`;
  return `${formatBytes(bytes)} of ${formatBytes(cap)} (${Math.round((bytes / cap) * 100)} %${label})`;
}
