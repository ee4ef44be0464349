import type { JpegInfo, Orientation } from '../../types.js';
import { MediaError } from '../../errors.js';
import { readExifOrientation } from '../exif.js';
import { ByteReader, corrupt } from '../byte-reader.js';
import { APP1, EOI, jpegSegments, SOS } from './segments.js';

const FORMAT = 'JPEG';
const EXIF_HEADER = 'Exif\0\0';

/** SOFn markers carry the frame header; C4 (DHT), C8 (JPG) and CC (DAC) share the range but are not frames. */
function isStartOfFrame(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

/** Frame types no mainstream decoder (libjpeg-turbo in browsers, mozjpeg here) reads: lossless and hierarchical. */
const UNDECODABLE_FRAMES = new Map([
  [0xc3, 'lossless'],
  [0xc5, 'hierarchical'],
  [0xc6, 'hierarchical progressive'],
  [0xc7, 'hierarchical lossless'],
  [0xcb, 'lossless arithmetic'],
  [0xcd, 'hierarchical arithmetic'],
  [0xce, 'hierarchical progressive arithmetic'],
  [0xcf, 'hierarchical lossless arithmetic'],
]);

/**
 * JPEG header facts: walks the marker segments (segments.ts) through APP1 Exif and the
 * SOFn frame header up to the first SOS. A file that ends before any scan data is refused as corrupt,
 * so it is never passed through untouched.
 */
export function probeJpeg(bytes: Uint8Array): JpegInfo {
  const reader = new ByteReader(bytes, FORMAT);
  let orientation: Orientation = 1;
  let sawExif = false;
  let frame: { width: number; height: number; bitDepth: number; components: number; progressive: boolean } | undefined;
  for (const { marker, body, end } of jpegSegments(bytes)) {
    const bodyLength = end - body;
    if (marker === APP1 && !sawExif && bodyLength > 6 && reader.ascii(body, 6, 'APP1') === EXIF_HEADER) {
      sawExif = true;
      orientation = readExifOrientation(bytes.subarray(body + 6, end));
    } else if (isStartOfFrame(marker) && !frame) {
      if (UNDECODABLE_FRAMES.has(marker)) {
        throw new MediaError(
          'E_UNSUPPORTED',
          `This JPEG uses ${UNDECODABLE_FRAMES.get(marker)} coding (SOF${marker - 0xc0}), which browsers and model providers do not decode. Re-save it as a standard (baseline or progressive) JPEG or as PNG.`,
          { format: FORMAT, sof: marker - 0xc0 },
        );
      }
      if (bodyLength < 6) throw corrupt(FORMAT, 'the frame header (SOF) is too short');
      const height = reader.u16be(body + 1, 'frame height');
      const width = reader.u16be(body + 3, 'frame width');
      if (height === 0) {
        throw new MediaError(
          'E_UNSUPPORTED',
          'This JPEG defines its height in a DNL marker after the image data, which is not supported. Re-save it with any image editor.',
          { format: FORMAT },
        );
      }
      if (width === 0) throw corrupt(FORMAT, 'the frame header gives width 0');
      const components = reader.u8(body + 5, 'component count');
      if (components === 0) throw corrupt(FORMAT, 'the frame header lists no colour components');
      frame = {
        width,
        height,
        bitDepth: reader.u8(body, 'sample precision'),
        components,
        progressive: marker === 0xc2 || marker === 0xc6 || marker === 0xca || marker === 0xce,
      };
    } else if (marker === SOS) {
      if (!frame) throw corrupt(FORMAT, 'image data (SOS) starts before any frame header (SOF)');
      if (end >= bytes.length) throw corrupt(FORMAT, 'the file ends right after the scan header, with no image data');
      return {
        mediaType: 'image/jpeg',
        bytes: bytes.length,
        ...frame,
        orientation,
        frames: 1,
        hasAlpha: false,
        complete: endsWithEoi(bytes),
      };
    }
  }
  throw corrupt(
    FORMAT,
    frame ? 'the file ends before any image data (SOS)' : 'the file ends before the frame header (SOF)',
  );
}

/** Whether the data ends with EOI, allowing the few bytes of padding some writers leave after it. */
function endsWithEoi(bytes: Uint8Array): boolean {
  for (let end = bytes.length; end >= 2 && end >= bytes.length - 16; end--) {
    if (bytes[end - 2] === 0xff && bytes[end - 1] === EOI) return true;
  }
  return false;
}
