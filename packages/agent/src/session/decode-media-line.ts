import { object } from './decode-message.js';
import { SessionError } from './session-error.js';
import type { MediaFact, MediaReferenceFact, MediaRefusalFact, SessionMediaLine } from './session-format.js';

const SHA256_HEX = /^[0-9a-f]{64}$/;
const ACTIONS: readonly MediaRefusalFact['action'][] = ['refit', 'placeholder'];
const PROVIDERS: readonly MediaReferenceFact['provider'][] = ['anthropic', 'openai', 'gemini'];

interface DecodeOptions {
  /** `refuse` (writing, the default) or `skip` (reading) a reference whose provider this version does not know. */
  unknownProviders?: 'refuse' | 'skip';
}

function shapeError(message: string): SessionError {
  return new SessionError('E_SESSION_CORRUPT', `media line: ${message}`);
}

function string(value: unknown, what: string): string {
  if (typeof value !== 'string' || value === '') throw shapeError(`${what} is not a non-empty string`);
  return value;
}

/** A string that may be empty (a provider's message can be). */
function text(value: unknown, what: string): string {
  if (typeof value !== 'string') throw shapeError(`${what} is not a string`);
  return value;
}

function oneOf<T extends string>(value: unknown, allowed: readonly T[], what: string): T {
  const found = allowed.find((candidate) => candidate === value);
  if (found === undefined) throw shapeError(`${what} ${JSON.stringify(value)} is not one of ${allowed.join(', ')}`);
  return found;
}

/**
 * Validates a `media` line (JSONL, or a database's stored line) and returns it with only the fields the format
 * knows. A line that says nothing (neither `refused` nor `reference`) is refused: no writer produces one.
 * Forward compatible: a well-formed reference of a provider this version does not know (a newer glimpse's, say
 * "bedrock") is passed over, not refused; a line that said nothing else is undefined (the reader skips it).
 */
export function decodeMediaLine(value: unknown): SessionMediaLine | undefined {
  const record = object(value, 'media line');
  if (record.type !== 'media') throw shapeError(`type ${JSON.stringify(record.type)} is not "media"`);
  const at = string(record.at, 'time "at"');
  const fact = decodeMediaFact(record, { unknownProviders: 'skip' });
  if (fact.refused === undefined && fact.reference === undefined) return undefined;
  return { type: 'media', at, ...fact };
}

/**
 * The fact of a media line or of an `appendMedia` call, checked before anything is written (a writer names only
 * the providers it knows; `unknownProviders: 'skip'` is for reading, see decodeMediaLine).
 */
export function decodeMediaFact(value: unknown, { unknownProviders = 'refuse' }: DecodeOptions = {}): MediaFact {
  const record = object(value, 'media fact');
  const sha256 = string(record.sha256, 'sha256');
  if (!SHA256_HEX.test(sha256)) throw shapeError(`sha256 ${JSON.stringify(sha256)} is not 64 lowercase hex digits`);
  if (record.refused === undefined && record.reference === undefined)
    throw shapeError('has neither "refused" nor "reference"');
  const fact: MediaFact = { sha256 };
  if (record.refused !== undefined) {
    const refused = object(record.refused, 'refused');
    fact.refused = {
      route: string(refused.route, 'refused.route'),
      code: string(refused.code, 'refused.code'),
      action: oneOf(refused.action, ACTIONS, 'refused.action'),
      reason: text(refused.reason, 'refused.reason'),
    };
    if (refused.maxRequestBytes !== undefined) {
      const cap = refused.maxRequestBytes;
      if (typeof cap !== 'number' || !Number.isSafeInteger(cap) || cap <= 0)
        throw shapeError(`refused.maxRequestBytes ${JSON.stringify(cap)} is not a positive integer`);
      fact.refused.maxRequestBytes = cap;
    }
  }
  if (record.reference !== undefined) {
    const reference = object(record.reference, 'reference');
    const provider = PROVIDERS.find((known) => known === reference.provider);
    if (provider === undefined) {
      if (unknownProviders === 'refuse') oneOf(reference.provider, PROVIDERS, 'reference.provider'); // throws
      string(reference.provider, 'reference.provider');
    }
    // Checked whole even when its provider is passed over: only a well-formed line of a newer writer is skipped.
    const decoded: Omit<MediaReferenceFact, 'provider'> = {
      id: string(reference.id, 'reference.id'),
      mimeType: string(reference.mimeType, 'reference.mimeType'),
    };
    if (reference.uri !== undefined) decoded.uri = string(reference.uri, 'reference.uri');
    if (reference.expiresAt !== undefined) {
      decoded.expiresAt = string(reference.expiresAt, 'reference.expiresAt');
      if (Number.isNaN(Date.parse(decoded.expiresAt))) throw shapeError('reference.expiresAt is not an ISO time');
    }
    if (provider !== undefined) fact.reference = { provider, ...decoded };
  }
  return fact;
}
