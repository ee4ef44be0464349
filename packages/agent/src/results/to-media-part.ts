import type { ProcessResult, SendableImageType } from '@glimpse/media';
import { bytesToBase64 } from '../base64.js';
import type { DocumentPart, ImagePart, MediaPart } from '../types.js';

/**
 * The part for what `@glimpse/media` produced: a document for a PDF (with its page count, and the file name when
 * there is one), otherwise an image with the pixel size it is sent at. Every place that turns a `process` or
 * `renderPdfPage` result into a part goes through here.
 */
export function toMediaPart(result: ProcessResult & { mediaType: SendableImageType }, filename?: string): ImagePart;
export function toMediaPart(result: ProcessResult, filename?: string): MediaPart;
export function toMediaPart(result: ProcessResult, filename?: string): MediaPart {
  const data = bytesToBase64(result.data);
  const { mediaType } = result;
  switch (mediaType) {
    case 'application/pdf':
      return {
        type: 'document',
        mediaType,
        data,
        ...(filename !== undefined && { filename }),
        ...(result.pages !== undefined && { pages: result.pages }),
      } satisfies DocumentPart;
    case 'image/png':
    case 'image/jpeg':
    case 'image/gif':
    case 'image/webp':
    case 'image/heic':
    case 'image/heif':
      return { type: 'image', mediaType, data, width: result.width, height: result.height };
    default: {
      const exhaustive: never = mediaType;
      return exhaustive;
    }
  }
}
