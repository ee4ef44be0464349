// A processed result as the agent shell's media part: what tool results and user turns carry.
import type { DocumentPart, ImagePart } from '@glimpse/agent';
import type { ProcessResult } from '@glimpse/media';

const CHUNK = 0x8000;

function base64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += CHUNK) binary += String.fromCharCode(...bytes.subarray(i, i + CHUNK));
  return btoa(binary);
}

export function mediaPartFrom(result: ProcessResult, filename: string): ImagePart | DocumentPart {
  const data = base64(result.data);
  if (result.mediaType === 'application/pdf') {
    return {
      type: 'document',
      mediaType: result.mediaType,
      data,
      filename,
      ...(result.pages !== undefined ? { pages: result.pages } : {}),
    };
  }
  return { type: 'image', mediaType: result.mediaType, data, width: result.width, height: result.height };
}
