/** Bedrock's document `name`: letters, digits, single spaces, hyphens, parentheses and square brackets; no dots; ≤ 200 chars. */
export const MAX_DOCUMENT_NAME = 200;

/**
 * A Bedrock-valid document name from a filename: the extension goes, every other disallowed character
 * (dots, underscores, slashes, …) becomes a hyphen, runs of whitespace become one space.
 * Names are made unique within a request with a ` (2)` style suffix, which the rules allow.
 */
export function sanitizeDocumentName(filename: string | undefined, taken: Set<string>): string {
  const stem = (filename ?? '').replace(/^.*[\\/]/, '').replace(/\.pdf$/i, '');
  let name = stem
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '') // accents off, so "résumé" keeps its letters
    .replace(/[^A-Za-z0-9\s\-()[\]]/g, '-')
    .replace(/\s+/g, ' ')
    .replace(/-{2,}/g, '-')
    .trim()
    .slice(0, MAX_DOCUMENT_NAME)
    .trim();
  if (name === '' || name === '-') name = 'document';
  let unique = name;
  for (let n = 2; taken.has(unique); n++) {
    const suffix = ` (${n})`;
    unique = name.slice(0, MAX_DOCUMENT_NAME - suffix.length).trimEnd() + suffix;
  }
  taken.add(unique);
  return unique;
}
