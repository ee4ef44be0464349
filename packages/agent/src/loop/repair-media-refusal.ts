import { bytesToBase64 } from '../base64.js';
import type { FittedConversation } from '../fit-conversation.js';
import type { Message } from '../types.js';
import type { MediaRefusal } from './classify-media-refusal.js';

/** What the loop changes in its outgoing copy after a refusal; it sends once more with it. */
export interface MediaBudgetState {
  /** Stored base64 of media refused once: placeholders from now on (`fitConversation`'s `refused`). */
  refused: Set<string>;
  maxRequestBytes?: number;
  maxImagesPerRequest?: number;
}

/** One repair, as `AgentRun.repairs` reports it. */
export interface MediaRepair {
  refusal: MediaRefusal;
  /** `left-out`: the named block's medium; `bytes-tightened`: the request's cap, to 3/4 of what was sent; `fewer-images`. */
  action: 'left-out' | 'bytes-tightened' | 'fewer-images';
  /** The new cap (bytes or images) or the stored base64 left out. */
  value: number | string;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** The first medium (base64 string of some length, or raw bytes) at or under a node of the body. */
function mediumUnder(node: unknown, depth = 0): string | undefined {
  if (depth > 8) return undefined;
  if (node instanceof Uint8Array) return bytesToBase64(node);
  if (typeof node === 'string') {
    const body = node.startsWith('data:') ? node.slice(node.indexOf(',') + 1) : node;
    return body.length >= 64 && /^[A-Za-z0-9+/]+=*$/.test(body) ? body : undefined;
  }
  if (Array.isArray(node)) {
    for (const item of node) {
      const found = mediumUnder(item, depth + 1);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (isRecord(node))
    for (const value of Object.values(node)) {
      const found = mediumUnder(value, depth + 1);
      if (found !== undefined) return found;
    }
  return undefined;
}

/** Follows an API's block path into the body; a segment the body does not have (a type name) is skipped. */
function follow(body: unknown, path: readonly (string | number)[]): unknown {
  let node = body;
  for (const segment of path) {
    const next = Array.isArray(node) ? node[Number(segment)] : isRecord(node) ? node[String(segment)] : undefined;
    if (next !== undefined) node = next;
  }
  return node;
}

const imageCount = (messages: readonly Message[]) =>
  messages.reduce(
    (sum, message) =>
      sum + (message.role === 'assistant' ? 0 : message.parts.filter((part) => part.type === 'image').length),
    0,
  );

/**
 * The repair for a refusal of the request just sent, applied to `state`; undefined when nothing in the request can
 * be changed for it (the block names no medium that was sent, or the cap cannot go lower).
 */
export function repairMediaRefusal(
  refusal: MediaRefusal,
  body: unknown,
  fitted: FittedConversation,
  sentBytes: number,
  state: MediaBudgetState,
): MediaRepair | undefined {
  switch (refusal.code) {
    case 'E_REQUEST_TOO_LARGE': {
      const cap = Math.floor(sentBytes * 0.75);
      if (cap <= 0) return undefined;
      state.maxRequestBytes = Math.min(state.maxRequestBytes ?? Infinity, cap);
      return { refusal, action: 'bytes-tightened', value: state.maxRequestBytes };
    }
    case 'E_TOO_MANY_IMAGES': {
      const images = imageCount(fitted.messages);
      if (images <= 1) return undefined;
      state.maxImagesPerRequest = Math.floor(images * 0.8);
      return { refusal, action: 'fewer-images', value: state.maxImagesPerRequest };
    }
    case 'E_MEDIA_REFUSED': {
      if (refusal.path === undefined) return undefined;
      const sent = mediumUnder(follow(body, refusal.path));
      const source = sent === undefined ? undefined : (fitted.sources.get(sent) ?? sent);
      if (source === undefined || state.refused.has(source)) return undefined;
      state.refused.add(source);
      return { refusal, action: 'left-out', value: source };
    }
    default: {
      const exhaustive: never = refusal.code;
      return exhaustive;
    }
  }
}
