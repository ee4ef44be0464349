// exiftool (Debian's libimage-exiftool-perl), the oracle of what metadata a file carries: it writes GPS,
// XMP, IPTC and comments into test files, and reads back every tag of an output.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Runs exiftool with `args` on `bytes` written as file.`extension`; its output and the file afterwards. */
export function exiftool(bytes: Uint8Array, extension: string, args: string[]): { output: string; file: Uint8Array } {
  const folder = mkdtempSync(join(tmpdir(), 'glimpse-exif-'));
  try {
    const path = join(folder, `file.${extension}`);
    writeFileSync(path, bytes);
    const output = execFileSync('exiftool', [...args, path], { encoding: 'utf8' });
    return { output, file: new Uint8Array(readFileSync(path)) };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** Every tag exiftool finds, as "Group:Tag" → value. */
export function exifTags(bytes: Uint8Array, extension: string): Record<string, unknown> {
  return JSON.parse(exiftool(bytes, extension, ['-j', '-G', '-a']).output)[0] as Record<string, unknown>;
}

/** A GPS position, an author and a comment, as exiftool arguments. */
export const LOCATION_TAGS = [
  '-GPSLatitude=48.8584',
  '-GPSLatitudeRef=N',
  '-GPSLongitude=2.2945',
  '-GPSLongitudeRef=E',
  '-XMP:Creator=A. Photographer',
  '-XMP:GPSLatitude=48.8584',
  '-Comment=taken at home',
];

/** Tags that carry metadata a sent file must not: GPS, Exif, XMP, IPTC, comments. */
export const METADATA_TAG = /^(EXIF|XMP(-\w+)?|IPTC|Photoshop|MPF):|GPS|Comment/;
