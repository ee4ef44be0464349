import type { MediaType } from '@glimpse/media';

/** Signatures of common non-media binaries, so a note can say what a file is instead of "binary". */
const SIGNATURES: ReadonlyArray<{ offset: number; bytes: readonly number[]; label: string }> = [
  { offset: 0, bytes: [0x50, 0x4b, 0x03, 0x04], label: 'ZIP archive (also .docx, .xlsx, .jar, …)' },
  { offset: 0, bytes: [0x1f, 0x8b], label: 'gzip archive' },
  { offset: 0, bytes: [0x28, 0xb5, 0x2f, 0xfd], label: 'Zstandard archive' },
  { offset: 0, bytes: [0x42, 0x5a, 0x68], label: 'bzip2 archive' },
  { offset: 0, bytes: [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00], label: 'xz archive' },
  { offset: 0, bytes: [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c], label: '7-Zip archive' },
  { offset: 0, bytes: [0x52, 0x61, 0x72, 0x21], label: 'RAR archive' },
  { offset: 257, bytes: [0x75, 0x73, 0x74, 0x61, 0x72], label: 'tar archive' },
  { offset: 0, bytes: [0x7f, 0x45, 0x4c, 0x46], label: 'ELF executable' },
  { offset: 0, bytes: [0x4d, 0x5a], label: 'Windows executable' },
  { offset: 0, bytes: [0xcf, 0xfa, 0xed, 0xfe], label: 'Mach-O executable' },
  { offset: 0, bytes: [0x00, 0x61, 0x73, 0x6d], label: 'WebAssembly module' },
  { offset: 0, bytes: [0x53, 0x51, 0x4c, 0x69, 0x74, 0x65, 0x20, 0x66], label: 'SQLite database' },
  { offset: 0, bytes: [0x49, 0x44, 0x33], label: 'MP3 audio' },
  { offset: 0, bytes: [0x66, 0x4c, 0x61, 0x43], label: 'FLAC audio' },
  { offset: 0, bytes: [0x4f, 0x67, 0x67, 0x53], label: 'Ogg audio/video' },
  { offset: 8, bytes: [0x57, 0x41, 0x56, 0x45], label: 'WAV audio' },
  { offset: 4, bytes: [0x66, 0x74, 0x79, 0x70], label: 'MP4/QuickTime video' },
  { offset: 0, bytes: [0x1a, 0x45, 0xdf, 0xa3], label: 'Matroska/WebM video' },
  { offset: 0, bytes: [0x77, 0x4f, 0x46, 0x32], label: 'WOFF2 font' },
  { offset: 0, bytes: [0x00, 0x01, 0x00, 0x00, 0x00], label: 'TrueType font' },
];

const MEDIA_LABELS: Readonly<Record<MediaType, string>> = {
  'image/png': 'PNG image',
  'image/jpeg': 'JPEG image',
  'image/gif': 'GIF image',
  'image/webp': 'WebP image',
  'image/bmp': 'BMP image',
  'image/svg+xml': 'SVG image',
  'application/pdf': 'PDF document',
  'image/tiff': 'TIFF image',
  'image/heic': 'HEIC image',
  'image/heif': 'HEIF image',
  'image/avif': 'AVIF image',
  'image/jxl': 'JPEG XL image',
  'image/x-icon': 'ICO icon',
};

/** A human name for a media type glimpse knows ("JPEG image"). */
export function mediaLabel(type: MediaType): string {
  return MEDIA_LABELS[type];
}

/** The human name of a value that may be a media type glimpse knows (an error's details), or undefined. */
export function mediaLabelOf(type: unknown): string | undefined {
  return Object.entries(MEDIA_LABELS).find(([known]) => known === type)?.[1];
}

/** A human name for a non-media binary, or `undefined` when no signature matches. */
export function describeBinary(bytes: Uint8Array): string | undefined {
  return SIGNATURES.find(({ offset, bytes: signature }) => signature.every((value, i) => bytes[offset + i] === value))
    ?.label;
}
