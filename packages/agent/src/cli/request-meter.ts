import type { EstimateOptions } from '../compaction/estimate-tokens.js';
import { requestBytes } from '../request-bytes.js';
import { resolveRoute } from '../route/resolve-route.js';
import { formatBytes } from '../tools/format-bytes.js';
import type { Message } from '../types.js';

/**
 * The byte meter beside the token one: the messages sent as one request on a route, serialized as glimpse sends
 * them before fitting (base64 and JSON included), against the route's bytes per request. The `fixed` row has no
 * route of its own.
 */
export function requestMeter(messages: readonly Message[], options: EstimateOptions): string {
  if (options.images === 'fixed') return '—';
  const route = resolveRoute({
    provider: options.provider,
    ...(options.model !== undefined && { model: options.model }),
  });
  const bytes = requestBytes(options.provider, { messages, route });
  const cap = route.media.limits.requestBytes;
  if (cap === undefined) return `${formatBytes(bytes)} (no cap)`;
  return `${formatBytes(bytes)} of ${formatBytes(cap)} (${Math.round((bytes / cap) * 100)} %)`;
}
