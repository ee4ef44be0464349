import { base64ToBytes } from '../base64.js';
import type { MediaFact } from '../session/session-format.js';
import type { SessionAppender } from '../session/session-store.js';
import { sha256Hex } from '../session/sha256-hex.js';
import type { Message } from '../types.js';
import type { MediaRepair } from './repair-media-refusal.js';

/**
 * The refusals a session log holds for one route, read back so a resumed run never sends those media again. The
 * log names media by the SHA-256 of their stored bytes and the loop's outgoing copy by their base64: `admit`
 * hashes each medium of the conversation once and adds the base64 of every refused one to the loop's set.
 */
export class LoggedRefusals {
  private readonly hashes: Set<string>;
  private readonly seen = new Set<string>();

  constructor(session: SessionAppender | undefined, route: string) {
    this.hashes = new Set(
      (session?.resumed?.media ?? []).flatMap((line) => (line.refused?.route === route ? [line.sha256] : [])),
    );
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
