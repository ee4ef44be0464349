import type { MediaType, ProbeResult } from './types.js';
import { MediaError } from './errors.js';
import { detect } from './detect.js';
import { probeBmp } from './formats/bmp/probe.js';
import { probeGif } from './formats/gif/probe.js';
import { probeIco } from './formats/ico/probe.js';
import { probeIsoBmff } from './formats/heif/probe.js';
import { probeJpeg } from './formats/jpeg/probe.js';
import { probePdf } from './formats/pdf/probe.js';
import { probePng } from './formats/png/probe.js';
import { probeSvg } from './formats/svg/probe.js';
import { probeTiff } from './formats/tiff/probe.js';
import { probeWebp } from './formats/webp/probe.js';

const READABLE = 'PNG, JPEG, GIF, WebP, BMP, TIFF, ICO/CUR, AVIF, HEIC/HEIF (with @glimpse/heif), SVG and PDF';

/**
 * Header facts without decoding pixels. Unknown bytes are `E_UNSUPPORTED`; a known format whose header
 * is truncated or malformed is `E_CORRUPT` (`E_SVG_INVALID` for SVG). TIFF, HEIC/HEIF, AVIF, JPEG XL and
 * ICO are named (with their size when it is cheap to read: not for JPEG XL) so the caller can refuse them clearly.
 */
export async function probe(bytes: Uint8Array): Promise<ProbeResult> {
  const mediaType = detect(bytes);
  if (mediaType === undefined) throw unrecognised(bytes);
  return probeAs(mediaType, bytes);
}

async function probeAs(mediaType: MediaType, bytes: Uint8Array): Promise<ProbeResult> {
  switch (mediaType) {
    case 'image/png':
      return probePng(bytes);
    case 'image/jpeg':
      return probeJpeg(bytes);
    case 'image/gif':
      return probeGif(bytes);
    case 'image/webp':
      return probeWebp(bytes);
    case 'image/bmp':
      return probeBmp(bytes);
    case 'image/svg+xml':
      return probeSvg(bytes);
    case 'application/pdf':
      return probePdf(bytes);
    case 'image/tiff':
      return probeTiff(bytes);
    case 'image/x-icon':
      return probeIco(bytes);
    case 'image/heic':
    case 'image/heif':
    case 'image/avif':
      return probeIsoBmff(mediaType, bytes);
    case 'image/jxl':
      return { mediaType, bytes: bytes.length, orientation: 1, frames: 1 };
    default: {
      const exhaustive: never = mediaType;
      throw new Error(`unhandled media type ${String(exhaustive)}`);
    }
  }
}

function unrecognised(bytes: Uint8Array): MediaError {
  if (bytes.length === 0) {
    return new MediaError('E_UNSUPPORTED', `The input is empty (0 bytes). glimpse reads ${READABLE}.`, { bytes: 0 });
  }
  const head = Array.from(bytes.subarray(0, 8), (byte) => byte.toString(16).padStart(2, '0')).join(' ');
  const printable = Array.from(bytes.subarray(0, 8), (byte) =>
    byte >= 0x20 && byte < 0x7f ? String.fromCharCode(byte) : '.',
  ).join('');
  return new MediaError(
    'E_UNSUPPORTED',
    `Unrecognised file format: it starts with bytes ${head} (${JSON.stringify(printable)}). glimpse reads ${READABLE}; convert the file to one of these.`,
    { bytes: bytes.length, head },
  );
}
