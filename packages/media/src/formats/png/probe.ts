import type { Orientation, PngInfo } from '../../types.js';
import { MediaError } from '../../errors.js';
import { readExifOrientation } from '../exif.js';
import { ByteReader, corrupt } from '../byte-reader.js';
import { pngChunks } from './chunks.js';

const FORMAT = 'PNG';
/** Bit depths the PNG spec allows per colour type. */
const ALLOWED_DEPTHS: Record<number, readonly number[]> = {
  0: [1, 2, 4, 8, 16], // gray
  2: [8, 16], // RGB
  3: [1, 2, 4, 8], // palette
  4: [8, 16], // gray + alpha
  6: [8, 16], // RGBA
};

/**
 * PNG header facts from IHDR, then a walk over the chunk chain (chunks.ts; data skipped)
 * for tRNS, acTL (APNG) and eXIf. The chain must reach IEND: a truncated PNG is refused here, so it is
 * never passed through untouched.
 */
export function probePng(bytes: Uint8Array): PngInfo {
  const reader = new ByteReader(bytes, FORMAT);
  if (reader.ascii(12, 4, 'first chunk') === 'CgBI') {
    throw new MediaError(
      'E_UNSUPPORTED',
      "This is an Apple-optimised PNG (CgBI chunk) that only Apple's decoders read. Re-export it as a standard PNG (for example with Preview or `xcrun pngcrush -revert-iphone-optimizations`).",
      { format: FORMAT },
    );
  }
  if (reader.u32be(8, 'IHDR chunk') !== 13 || reader.ascii(12, 4, 'IHDR chunk') !== 'IHDR') {
    throw corrupt(FORMAT, 'the first chunk is not a 13-byte IHDR');
  }
  const width = reader.u32be(16, 'IHDR width');
  const height = reader.u32be(20, 'IHDR height');
  const bitDepth = reader.u8(24, 'IHDR bit depth');
  const colorType = reader.u8(25, 'IHDR colour type');
  const interlace = reader.u8(28, 'IHDR interlace method');
  if (width === 0 || height === 0 || width > 0x7fffffff || height > 0x7fffffff) {
    throw corrupt(FORMAT, `IHDR gives an impossible size ${width}x${height}`, { width, height });
  }
  if (!ALLOWED_DEPTHS[colorType]?.includes(bitDepth)) {
    throw corrupt(FORMAT, `IHDR gives colour type ${colorType} with bit depth ${bitDepth}, which PNG does not allow`);
  }
  if (interlace > 1) throw corrupt(FORMAT, `IHDR gives unknown interlace method ${interlace}`);

  let hasTransparencyChunk = false;
  let frames = 1;
  let orientation: Orientation = 1;
  let sawImageData = false;
  for (const { type, data, length } of pngChunks(bytes)) {
    if (type === 'IDAT') sawImageData = true;
    else if (type === 'tRNS') hasTransparencyChunk = true;
    else if (type === 'acTL' && length >= 8 && !sawImageData)
      frames = Math.max(1, reader.u32be(data, 'acTL frame count'));
    else if (type === 'eXIf') orientation = readExifOrientation(bytes.subarray(data, data + length));
  }
  if (!sawImageData) throw corrupt(FORMAT, 'it has no IDAT (image data) chunk');

  return {
    mediaType: 'image/png',
    bytes: bytes.length,
    width,
    height,
    orientation,
    frames,
    hasAlpha: colorType === 4 || colorType === 6 || hasTransparencyChunk,
    bitDepth,
    interlaced: interlace === 1,
  };
}
