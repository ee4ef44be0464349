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
  /** Stored base64 of the media the last accepted request carried: a refusal naming no block is about one added since. */
  accepted?: ReadonlySet<string>;
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

/**
 * Follows an API's block path into the body. APIs name blocks in their own spelling and sometimes through a
 * translation (Gemini's `function_response` is the body's `functionResponse`; Bedrock relays the model's
 * `content.0.content.1`, where the Converse body has `content[0].toolResult.content[1]`): a name the node lacks is
 * looked up in camelCase, then in the node's only object child (a wrapper); a segment found nowhere is skipped.
 */
function follow(body: unknown, path: readonly (string | number)[]): unknown {
  let node = body;
  for (const segment of path) {
    const next = step(node, segment);
    if (next !== undefined) node = next;
  }
  return node;
}

function step(node: unknown, segment: string | number): unknown {
  if (Array.isArray(node)) return typeof segment === 'number' ? node[segment] : undefined;
  if (!isRecord(node)) return undefined;
  const name = String(segment);
  const camel = name.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
  if (node[name] !== undefined) return node[name];
  if (node[camel] !== undefined) return node[camel];
  const children = Object.values(node).filter((value) => isRecord(value) && !Array.isArray(value));
  const [only] = children;
  return children.length === 1 && isRecord(only) ? (only[name] ?? only[camel]) : undefined;
}

/** Stored base64 of every medium a fitted request carries (the source of each fitted copy). */
export function sentMedia(fitted: FittedConversation): Set<string> {
  const sources = new Set<string>();
  for (const message of fitted.messages) {
    if (message.role === 'assistant') continue;
    for (const part of message.parts) if (part.type !== 'text') sources.add(fitted.sources.get(part.data) ?? part.data);
  }
  return sources;
}

const imageCount = (messages: readonly Message[]) =>
  messages.reduce(
    (sum, message) =>
      sum + (message.role === 'assistant' ? 0 : message.parts.filter((part) => part.type === 'image').length),
    0,
  );

/** The stored base64 of the medium at the block an API named, when one was sent there. */
function namedMedium(
  body: unknown,
  path: readonly (string | number)[],
  fitted: FittedConversation,
): string | undefined {
  const sent = mediumUnder(follow(body, path));
  return sent === undefined ? undefined : (fitted.sources.get(sent) ?? sent);
}

/**
 * For a refusal naming no block: the one medium this request carries that the last accepted one did not (all
 * of them on a run's first request), since the provider took the rest; undefined when that is not exactly one.
 */
function onlyNew(fitted: FittedConversation, state: MediaBudgetState): string | undefined {
  const added = [...sentMedia(fitted)].filter((source) => !state.accepted?.has(source) && !state.refused.has(source));
  return added.length === 1 ? added[0] : undefined;
}

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
      const source = refusal.path === undefined ? onlyNew(fitted, state) : namedMedium(body, refusal.path, fitted);
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
