import type { FileReference } from '../types.js';

/**
 * A provider's answer to an upload, as a reference, or an error saying what it lacks. A store (or a proxy before it)
 * can answer 200 with `{}`, `{"id":""}` or an HTML page; such a "reference" would be sent as a `file_id`-less source
 * and refused by the session log, so it is an upload that failed: the medium goes inline.
 */
export function checkFileReference(reference: FileReference): FileReference {
  const { id, uri, mimeType, expiresAt } = reference as Partial<Record<keyof FileReference, unknown>>;
  const fail = (what: string) =>
    new Error(`the ${reference.provider} file store answered without a usable reference (${what})`);
  if (typeof id !== 'string' || id.trim() === '') throw fail(`id ${JSON.stringify(id) ?? 'missing'}`);
  if (uri !== undefined && (typeof uri !== 'string' || uri.trim() === '')) throw fail(`uri ${JSON.stringify(uri)}`);
  if (typeof mimeType !== 'string' || mimeType === '') throw fail(`mimeType ${JSON.stringify(mimeType) ?? 'missing'}`);
  if (expiresAt !== undefined && (typeof expiresAt !== 'string' || Number.isNaN(Date.parse(expiresAt))))
    throw fail(`expiry ${JSON.stringify(expiresAt)} is not a time`);
  return reference;
}
