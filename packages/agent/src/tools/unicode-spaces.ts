/** Every space separator (Unicode category Zs): U+0020, U+00A0, U+1680, U+2000–U+200A, U+202F, U+205F, U+3000. */
const UNICODE_SPACES = /\p{Zs}/gu;

/**
 * Folds every Unicode space to an ASCII space. macOS names screenshots "… at 10.00.00\u202FAM.png";
 * models echo the narrow no-break space back as a plain space, and the exact lookup fails.
 */
export function foldUnicodeSpaces(name: string): string {
  return name.replace(UNICODE_SPACES, ' ');
}

/** A name with its invisible differences spelled out (`\u{202F}`), for messages that list look-alike names. */
export function showUnicodeSpaces(name: string): string {
  return `"${name.replace(UNICODE_SPACES, (space) => (space === ' ' ? space : `\\u{${space.codePointAt(0)!.toString(16).toUpperCase()}}`))}"`;
}

/**
 * The name used to match a missing file against its directory: Unicode spaces folded, and composed (NFC),
 * since names made on macOS often arrive decomposed ("cafe\u0301") while models type them composed ("café").
 */
export function looseFileName(name: string): string {
  return foldUnicodeSpaces(name).normalize('NFC');
}
