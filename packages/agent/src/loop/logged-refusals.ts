import { base64ToBytes } from '../base64.js';
import type { MediaFact } from '../session/session-format.js';
import type { SessionAppender } from '../session/session-store.js';
import { sha256Hex } from '../session/sha256-hex.js';
import type { Message } from '../types.js';
import type { FittedConversation } from '../fit-conversation.js';
import type { MediaRepair } from './repair-media-refusal.js';

/**
 * The refusals a session log holds for one route, read back so a resumed run never sends those media again. The
 * log names media by the SHA-256 of their stored bytes and the loop's outgoing copy by their base64: `admit`
 * hashes each medium of the conversation once and adds the base64 of every refused one to the loop's set.
 */
export class LoggedRefusals {
  private readonly hashes: Set<string>;
  private readonly seen = new Set<string>();
  /** The smallest bytes per request a 413 tightened this route to (its `refit` lines), if any. */
  readonly maxRequestBytes: number | undefined;
  /** The fewest images per request a "too many images" cut this route to, if any. */
  readonly maxImagesPerRequest: number | undefined;

  constructor(session: SessionAppender | undefined, route: string) {
    const refusals = (session?.resumed?.media ?? []).flatMap((line) =>
      line.refused?.route === route ? [{ sha256: line.sha256, ...line.refused }] : [],
    );
    // Only placeholders are left out again; a refit medium may be sent, under the tightened budget.
    this.hashes = new Set(refusals.flatMap((fact) => (fact.action === 'placeholder' ? [fact.sha256] : [])));
    const smallest = (caps: (number | undefined)[]) => {
      const known = caps.filter((cap) => cap !== undefined);
      return known.length > 0 ? Math.min(...known) : undefined;
    };
    const refits = refusals.filter((fact) => fact.action === 'refit');
    this.maxRequestBytes = smallest(refits.map((fact) => fact.maxRequestBytes));
    this.maxImagesPerRequest = smallest(refits.map((fact) => fact.maxImagesPerRequest));
  }

  /** Adds to `refused` the base64 of each medium in `messages` the log says this route refused. */
  async admit(messages: readonly Message[], refused: Set<string>): Promise<void> {
    if (this.hashes.size === 0) return;
    for (const message of messages) {
      if (message.role === 'assistant') continue;
      for (const part of message.parts) {
        if (part.type === 'text' || this.seen.has(part.data)) continue;
        this.seen.add(part.data);
        const bytes = base64ToBytes(part.data);
        if (bytes !== undefined && this.hashes.has(await sha256Hex(bytes))) refused.add(part.data);
      }
    }
  }
}

/** The `media` line of a repair that left one medium out: which medium, for which route, and why. */
export async function refusalLine(repair: MediaRepair, route: string): Promise<MediaFact | undefined> {
  if (repair.action !== 'left-out' || typeof repair.value !== 'string') return undefined;
  const bytes = base64ToBytes(repair.value);
  if (bytes === undefined) return undefined;
  return {
    sha256: await sha256Hex(bytes),
    refused: { route, code: repair.refusal.code, action: 'placeholder', reason: repair.refusal.message },
  };
}

/** The base64 sent for each medium of a fitted request, by its stored base64 (absent: left out, or a placeholder). */
function sentCopies(fitted: FittedConversation): Map<string, string> {
  const copies = new Map<string, string>();
  for (const message of fitted.messages) {
    if (message.role === 'assistant') continue;
    for (const part of message.parts)
      if (part.type !== 'text') copies.set(fitted.sources.get(part.data) ?? part.data, part.data);
  }
  return copies;
}

/**
 * The `media` lines of a whole-request repair (a 413's `bytes-tightened`, `fewer-images`): one `refit` line per
 * medium the tightened cap changed (sent smaller, or left out), each with the new `maxRequestBytes` or
 * `maxImagesPerRequest`, so a resumed run starts under it. `before` is the refused request, `after` the one about
 * to be sent in its place. None when the cap changed no medium (the text alone is over, or every medium is at its
 * floor): the cap acts on media only, so the resend, and a resumed run's request, would be the same under it.
 */
export async function refitLines(
  repair: MediaRepair,
  route: string,
  before: FittedConversation,
  after: FittedConversation,
): Promise<MediaFact[]> {
  if (repair.action === 'left-out' || typeof repair.value !== 'number') return [];
  const cap =
    repair.action === 'bytes-tightened' ? { maxRequestBytes: repair.value } : { maxImagesPerRequest: repair.value };
  const now = sentCopies(after);
  const lines: MediaFact[] = [];
  for (const [source, copy] of sentCopies(before)) {
    if (now.get(source) === copy) continue;
    const bytes = base64ToBytes(source);
    if (bytes === undefined) continue;
    lines.push({
      sha256: await sha256Hex(bytes),
      refused: {
        route,
        code: repair.refusal.code,
        action: 'refit',
        reason: repair.refusal.message,
        ...cap,
      },
    });
  }
  return lines;
}
