// ICC colour profiles as every format carries them: the bounds and header checks that decide whether an
// embedded profile is one to keep, and whether it describes the RGB pixels the core decodes to.
import { asciiAt } from './byte-reader.js';

/**
 * Larger profiles are ignored. Display profiles are 0.5–4 KB and the biggest printer profiles about
 * 2 MB; the bound also caps what a PNG's compressed iCCP may inflate to.
 */
export const MAX_PROFILE_BYTES = 4 * 1024 * 1024;

const PROFILE_HEADER_BYTES = 128;

/** The profile cut to its declared size, or undefined unless it has an ICC header ('acsp' signature). */
export function wellFormedProfile(profile: Uint8Array): Uint8Array | undefined {
  if (profile.length < PROFILE_HEADER_BYTES || profile.length > MAX_PROFILE_BYTES) return undefined;
  if (asciiAt(profile, 36, 4) !== 'acsp') return undefined;
  const declared = u32be(profile, 0);
  if (declared < PROFILE_HEADER_BYTES || declared > profile.length) return undefined;
  return profile.subarray(0, declared);
}

/** Device classes that may be embedded in an image (not device links, abstract or named-colour profiles). */
const IMAGE_PROFILE_CLASSES = new Set(['mntr', 'scnr', 'prtr', 'spac']);

/** Whether the profile's data colour space is RGB, which is what decoded and re-encoded pixels are. */
export function describesRgb(profile: Uint8Array): boolean {
  return IMAGE_PROFILE_CLASSES.has(asciiAt(profile, 12, 4)) && asciiAt(profile, 16, 4) === 'RGB ';
}

function u32be(bytes: Uint8Array, offset: number): number {
  return ((bytes[offset]! << 24) | (bytes[offset + 1]! << 16) | (bytes[offset + 2]! << 8) | bytes[offset + 3]!) >>> 0;
}

/** ASCII text as bytes (profile tags and chunk names). */
export function ascii(text: string): Uint8Array {
  return Uint8Array.from(text, (character) => character.charCodeAt(0));
}
