/** How far into a file we look for the `<svg` root: prologs (comments, doctypes) are small in practice. */
export const SVG_SNIFF_LIMIT = 64 * 1024;

/**
 * Decodes up to `limit` bytes of a possibly-SVG file: a UTF-8 BOM, a UTF-16 BOM (either order) or plain UTF-8.
 * UTF-16 is decoded by hand because not every runtime's TextDecoder knows it.
 */
export function decodeSvgText(bytes: Uint8Array, limit: number): string {
  if (bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))) {
    const littleEndian = bytes[0] === 0xff;
    const end = Math.min(bytes.length, limit) & ~1;
    const units: number[] = [];
    let text = '';
    for (let i = 2; i + 1 < end; i += 2) {
      units.push(littleEndian ? bytes[i]! | (bytes[i + 1]! << 8) : (bytes[i]! << 8) | bytes[i + 1]!);
      if (units.length === 4096) {
        text += String.fromCharCode(...units);
        units.length = 0;
      }
    }
    return text + String.fromCharCode(...units);
  }
  const start = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  return new TextDecoder('utf-8').decode(bytes.subarray(start, Math.min(bytes.length, limit)));
}

/** Index of the root `<svg` start tag after an XML prolog (declaration, comments, processing instructions, doctype), or undefined. */
export function locateSvgRoot(text: string): number | undefined {
  let i = 0;
  while (i < text.length) {
    i = skipWhitespace(text, i);
    if (text.startsWith('<?', i)) {
      const end = text.indexOf('?>', i + 2);
      if (end < 0) return undefined;
      i = end + 2;
    } else if (text.startsWith('<!--', i)) {
      const end = text.indexOf('-->', i + 4);
      if (end < 0) return undefined;
      i = end + 3;
    } else if (text.slice(i, i + 9).toUpperCase() === '<!DOCTYPE') {
      const end = skipDoctype(text, i + 9);
      if (end === undefined) return undefined;
      i = end;
    } else {
      return /^<(?:[A-Za-z_][\w.-]*:)?svg[\s/>]/.test(text.slice(i, i + 64)) ? i : undefined;
    }
  }
  return undefined;
}

/** Detection entry: cheap reject unless the first visible character is `<`. */
export function findSvgRoot(bytes: Uint8Array): number | undefined {
  if (!looksLikeMarkup(bytes)) return undefined;
  return locateSvgRoot(decodeSvgText(bytes, SVG_SNIFF_LIMIT));
}

function looksLikeMarkup(bytes: Uint8Array): boolean {
  let i = 0;
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) i = 3;
  else if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) return true;
  while (i < bytes.length && i < SVG_SNIFF_LIMIT && isWhitespaceByte(bytes[i]!)) i++;
  return bytes[i] === 0x3c;
}

function isWhitespaceByte(byte: number): boolean {
  return byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d;
}

function skipWhitespace(text: string, from: number): number {
  let i = from;
  while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  return i;
}

/** Skips `<!DOCTYPE …>` including an internal subset `[…]` with its quoted strings and comments. */
function skipDoctype(text: string, from: number): number | undefined {
  let depth = 0;
  let quote = '';
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") {
      quote = c;
    } else if (c === '<' && text.startsWith('<!--', i)) {
      const end = text.indexOf('-->', i + 4);
      if (end < 0) return undefined;
      i = end + 2;
    } else if (c === '[') {
      depth++;
    } else if (c === ']') {
      depth = Math.max(0, depth - 1);
    } else if (c === '>' && depth === 0) {
      return i + 1;
    }
  }
  return undefined;
}
