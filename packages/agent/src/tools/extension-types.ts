import type { MediaType } from '@glimpse/media';

/** What a file name's extension claims. Only content decides what a file is; this is for telling the model when they disagree. */
const CLAIMED_BY_EXTENSION: Readonly<Record<string, MediaType>> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.jpe': 'image/jpeg',
  '.jfif': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.bmp': 'image/bmp',
  '.svg': 'image/svg+xml',
  '.pdf': 'application/pdf',
  '.tif': 'image/tiff',
  '.tiff': 'image/tiff',
  '.heic': 'image/heic',
  '.heif': 'image/heif',
  '.avif': 'image/avif',
  '.jxl': 'image/jxl',
  '.ico': 'image/x-icon',
};

/** The extension to suggest in a rename. */
const EXTENSION_FOR: Readonly<Record<MediaType, string>> = {
  'image/png': '.png',
  'image/jpeg': '.jpg',
  'image/gif': '.gif',
  'image/webp': '.webp',
  'image/bmp': '.bmp',
  'image/svg+xml': '.svg',
  'application/pdf': '.pdf',
  'image/tiff': '.tiff',
  'image/heic': '.heic',
  'image/heif': '.heif',
  'image/avif': '.avif',
  'image/jxl': '.jxl',
  'image/x-icon': '.ico',
};

export function typeClaimedByExtension(extension: string): MediaType | undefined {
  return CLAIMED_BY_EXTENSION[extension.toLowerCase()];
}

/** `name` with its extension replaced by the one that matches `type` ("photo.png" → "photo.jpg"). */
export function renamedFor(name: string, extension: string, type: MediaType): string {
  return name.slice(0, name.length - extension.length) + EXTENSION_FOR[type];
}
