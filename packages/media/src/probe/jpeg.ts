import type { Orientation, ProbeResult } from '../types.js';
import { MediaError } from '../errors.js';
import { readExifOrientation } from '../exif.js';
import { ByteReader, corrupt } from './byte-reader.js';

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

/** Markers without a length field: TEM, RST0–7, SOI, EOI. */
function isStandalone(marker: number): boolean {
  return marker === 0x01 || (marker >= 0xd0 && marker <= 0xd9);
}

/**
 * JPEG header facts: walks the marker segments (skipping fill bytes and standalone markers) through
 * APP1 Exif and the SOFn frame header up to the first SOS. A file that ends before any scan data
 * is refused as corrupt, so it is never passed through untouched.
 */
export function probeJpeg(bytes: Uint8Array): ProbeResult {
  const reader = new ByteReader(bytes, FORMAT);
  let orientation: Orientation = 1;
  let sawExif = false;
  let frame: { width: number; height: number; bitDepth: number; components: number; progressive: boolean } | undefined;
  let offset = 2;
  while (offset < bytes.length) {
    // Like libjpeg, step over stray bytes between segments (some writers pad them) to the next marker.
    while (offset < bytes.length && bytes[offset] !== 0xff) offset++;
    while (offset < bytes.length && bytes[offset] === 0xff) offset++; // fill bytes
    const marker = reader.u8(offset, 'marker');
    offset++;
    if (isStandalone(marker)) {
      if (marker === 0xd9) throw corrupt(FORMAT, 'it ends (EOI) before any image data');
      continue;
    }
    if (marker === 0x00) continue; // a stuffed 0xFF00 outside a scan: stray data, keep looking
    const length = reader.u16be(offset, 'segment length');
    if (length < 2) throw corrupt(FORMAT, `segment 0xFF${marker.toString(16).toUpperCase()} has length ${length}`);
    reader.need(offset, length, `0xFF${marker.toString(16).toUpperCase()} segment`);
    const body = offset + 2;
    const bodyLength = length - 2;

    if (marker === 0xe1 && !sawExif && bodyLength > 6 && reader.ascii(body, 6, 'APP1') === EXIF_HEADER) {
      sawExif = true;
      orientation = readExifOrientation(bytes.subarray(body + 6, body + bodyLength));
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
    } else if (marker === 0xda) {
      if (!frame) throw corrupt(FORMAT, 'image data (SOS) starts before any frame header (SOF)');
      if (body + bodyLength >= bytes.length) throw corrupt(FORMAT, 'the file ends right after the scan header, with no image data');
      return {
        mediaType: 'image/jpeg',
        bytes: bytes.length,
        width: frame.width,
        height: frame.height,
        orientation,
        frames: 1,
        hasAlpha: false,
        bitDepth: frame.bitDepth,
        components: frame.components,
        progressive: frame.progressive,
      };
    }
    offset = body + bodyLength;
  }
  throw corrupt(FORMAT, frame ? 'the file ends before any image data (SOS)' : 'the file ends before the frame header (SOF)');
}
