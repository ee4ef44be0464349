// PDF's byte classes (ISO 32000-1, 7.2.2), shared by the readers in this folder: tables for the content
// reader's hot loop, and the predicates the dictionary and cross-reference readers use.

/** 0 regular, 1 white-space, 2 delimiter. */
export const PDF_BYTE_CLASS = new Uint8Array(256);
for (const byte of [0, 9, 10, 12, 13, 32]) PDF_BYTE_CLASS[byte] = 1;
for (const char of '()<>[]{}/%') PDF_BYTE_CLASS[char.charCodeAt(0)] = 2;

/** 1 for the digits of a hexadecimal string. */
export const PDF_HEX_DIGIT = new Uint8Array(256);
for (const char of '0123456789ABCDEFabcdef') PDF_HEX_DIGIT[char.charCodeAt(0)] = 1;

export const isPdfSpace = (byte: number | undefined): boolean => byte !== undefined && PDF_BYTE_CLASS[byte] === 1;
export const isPdfDelimiter = (byte: number | undefined): boolean => byte !== undefined && PDF_BYTE_CLASS[byte] === 2;
export const isPdfHexDigit = (byte: number): boolean => PDF_HEX_DIGIT[byte] === 1;
