import type { ProbeResult } from '../types.js';
import { MediaError } from '../errors.js';
import { findPdfHeader } from '../detect.js';
import { indexOfAscii } from './byte-reader.js';

const FORMAT = 'PDF';
/** Readers require `%%EOF` within the last 1024 bytes; a file cut short loses it. */
const EOF_WINDOW = 1024;

/**
 * PDF facts: page count, encryption, and the first page's visible size (crop box, turned by /Rotate) in points.
 * pdf-lib is imported lazily so image-only users never load it. Encrypted files are reported, not refused:
 * refusing is the caller's decision. A truncated or unparseable file is `E_CORRUPT`.
 */
export async function probePdf(bytes: Uint8Array): Promise<ProbeResult> {
  if (findPdfHeader(bytes) < 0) throw corrupt('there is no %PDF- header in the first 1024 bytes');
  if (!hasEofMarker(bytes)) throw corrupt('it is truncated: the %%EOF marker is missing from its end');

  const { PDFDocument } = await import('pdf-lib');
  let document: Awaited<ReturnType<typeof PDFDocument.load>>;
  try {
    // throwOnInvalidObject: a broken object fails here instead of pdf-lib printing warnings and guessing.
    document = await PDFDocument.load(bytes, { updateMetadata: false, ignoreEncryption: true, throwOnInvalidObject: true, parseSpeed: Infinity });
  } catch (error) {
    // Encrypted object streams cannot be parsed without the key, but the file is still recognisably encrypted.
    if (mentionsEncrypt(bytes)) return { mediaType: 'application/pdf', bytes: bytes.length, orientation: 1, frames: 1, encrypted: true };
    throw corrupt(`pdf-lib cannot parse it (${firstLine(error)})`, error);
  }

  const encrypted = document.isEncrypted;
  let pages: number;
  let firstPage: { width: number; height: number } | undefined;
  try {
    pages = document.getPageCount();
    if (pages > 0) {
      const page = document.getPage(0);
      const box = page.getCropBox();
      const turned = Math.abs(page.getRotation().angle) % 180 === 90;
      const width = Math.abs(box.width);
      const height = Math.abs(box.height);
      firstPage = turned ? { width: height, height: width } : { width, height };
    }
  } catch (error) {
    if (encrypted) return { mediaType: 'application/pdf', bytes: bytes.length, orientation: 1, frames: 1, encrypted };
    throw corrupt(`its page tree cannot be read (${firstLine(error)})`, error);
  }
  if (pages === 0 && !encrypted) throw corrupt('it has no pages');

  return {
    mediaType: 'application/pdf',
    bytes: bytes.length,
    orientation: 1,
    frames: 1,
    pages,
    encrypted,
    ...(firstPage && {
      pageWidth: firstPage.width,
      pageHeight: firstPage.height,
      width: Math.round(firstPage.width),
      height: Math.round(firstPage.height),
    }),
  };
}

/** Whether `%%EOF` sits within the last 1024 bytes (readers require it; a file cut short loses it). */
export function hasEofMarker(bytes: Uint8Array): boolean {
  return indexOfAscii(bytes, '%%EOF', bytes.length - EOF_WINDOW) >= 0;
}

function mentionsEncrypt(bytes: Uint8Array): boolean {
  return indexOfAscii(bytes, '/Encrypt') >= 0;
}

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0].slice(0, 200);
}

function corrupt(problem: string, cause?: unknown): MediaError {
  return new MediaError('E_CORRUPT', `The ${FORMAT} file is malformed: ${problem}. Re-export or re-download it.`, { format: FORMAT }, { cause });
}
