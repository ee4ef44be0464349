import type { FileReference } from '../types.js';

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Whether an error's text names a file reference: its id, its URI, or the id's last path segment as a whole word
 * (Gemini names `files/abc` as "the File abc" in its 403 for a file it no longer holds). Matching the reference
 * itself, never a phrase, keeps a refusal about something else (a bad key names no file) from counting.
 */
export function mentionsReference(text: string, reference: FileReference): boolean {
  if (text.includes(reference.id) || (reference.uri !== undefined && text.includes(reference.uri))) return true;
  const name = reference.id.slice(reference.id.lastIndexOf('/') + 1);
  if (name === '' || name === reference.id) return false;
  return new RegExp(`(?<![\\w-])${escapeRegExp(name)}(?![\\w-])`).test(text);
}
