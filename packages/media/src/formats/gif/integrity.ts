import { gifLzwReader } from './lzw.js';
import { isMediaError } from '../../errors.js';
import {
  colourTableBytes,
  EXTENSION,
  GRAPHIC_CONTROL,
  IMAGE_DESCRIPTOR,
  LOGICAL_SCREEN_END,
  TRAILER,
} from './probe.js';
import type { IntegrityProblem } from '../integrity-problem.js';

/** The offset after a chain of length-prefixed sub-blocks and its zero terminator, or -1 if it runs past the end. */
export function subBlocksEnd(bytes: Uint8Array, from: number): number {
  let at = from;
  while (at < bytes.length) {
    const size = bytes[at]!;
    at += 1 + size;
    if (size === 0) return at;
  }
  return -1;
}

/** An image descriptor's fields, read from the bytes after its introducer. */
interface GifImage {
  width: number;
  height: number;
  minCodeSize: number;
  /** Offset of the first LZW data sub-block. */
  dataOffset: number;
}

/**
 * The block structure giflib walks (GIF89a spec): a logical screen, extensions made of sub-blocks (a
 * graphic control extension 4 bytes long), image descriptors that lie inside the logical screen and have
 * a colour table (their own or the global one), an LZW minimum code size of 2 to 8, sub-blocks that end
 * inside the file, and a trailer. Bytes after the trailer are not read by anyone, so they are allowed.
 * Problems are repairable: the decoder reads what browsers show, and the pixels are re-encoded.
 */
export function checkGifIntegrity(bytes: Uint8Array): IntegrityProblem | undefined {
  const problem = (text: string): IntegrityProblem => ({ fatal: false, problem: text });
  let images = 0;
  for (const found of gifBlocks(bytes)) {
    if (typeof found === 'string') return problem(found);
    images++;
  }
  return images > 0 ? undefined : problem('it holds no image');
}

/**
 * The image data, as giflib decodes it: every image's LZW codes defined when used and enough of them for
 * every pixel. A code the dictionary does not hold yet means the data is damaged (fatal); data that ends
 * early leaves the rest of the image to the decoder to fill (repairable). Call after `checkGifIntegrity`
 * found nothing. Memory: the LZW dictionary and one row; time: one pass over the pixels.
 */
export function checkGifImageData(bytes: Uint8Array): IntegrityProblem | undefined {
  let index = 0;
  for (const image of gifBlocks(bytes)) {
    if (typeof image === 'string') return { fatal: false, problem: image };
    index++;
    const row = new Uint8Array(image.width);
    try {
      const reader = gifLzwReader(bytes, image.dataOffset, image.minCodeSize);
      for (let y = 0; y < image.height; y++) {
        if (reader.read(row, 0, image.width) < image.width)
          return { fatal: false, problem: `the image data of image ${index} ends at row ${y} of ${image.height}` };
      }
    } catch (error) {
      if (!isMediaError(error)) throw error;
      return { fatal: true, problem: `the image data of image ${index} is damaged (${error.message})` };
    }
  }
  return undefined;
}

/** Each image descriptor in turn, or a string saying what is wrong with the blocks (the walk then stops). */
function* gifBlocks(bytes: Uint8Array): Generator<GifImage | string> {
  if (bytes.length < LOGICAL_SCREEN_END) return yield 'its logical screen descriptor is cut short';
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const screenWidth = view.getUint16(6, true);
  const screenHeight = view.getUint16(8, true);
  const globalTable = (bytes[10]! & 0x80) !== 0;
  let at = LOGICAL_SCREEN_END + colourTableBytes(bytes[10]!);
  let images = 0;
  for (;;) {
    if (at >= bytes.length) return yield 'it ends without a trailer';
    const block = bytes[at]!;
    if (block === TRAILER) return;
    if (block === EXTENSION) {
      if (bytes[at + 1] === GRAPHIC_CONTROL && bytes[at + 2] !== 4)
        return yield `its graphic control extension at byte ${at} is not 4 bytes long`;
      at = subBlocksEnd(bytes, at + 2);
      if (at < 0) return yield 'an extension runs past the end of the file';
    } else if (block === IMAGE_DESCRIPTOR) {
      images++;
      if (at + 11 > bytes.length) return yield `image ${images}'s descriptor is cut short`;
      const left = view.getUint16(at + 1, true);
      const top = view.getUint16(at + 3, true);
      const width = view.getUint16(at + 5, true);
      const height = view.getUint16(at + 7, true);
      const flags = bytes[at + 9]!;
      if (width === 0 || height === 0) return yield `image ${images} is ${width}x${height}`;
      if (left + width > screenWidth || top + height > screenHeight)
        return yield `image ${images} reaches past the ${screenWidth}x${screenHeight} logical screen`;
      if (!(flags & 0x80) && !globalTable)
        return yield `image ${images} has no colour table and there is no global one`;
      const codeSizeAt = at + 10 + colourTableBytes(flags);
      const minCodeSize = bytes[codeSizeAt];
      if (minCodeSize === undefined) return yield `image ${images} is cut short`;
      if (minCodeSize < 2 || minCodeSize > 8)
        return yield `image ${images} has an LZW minimum code size of ${minCodeSize} (GIF allows 2 to 8)`;
      at = subBlocksEnd(bytes, codeSizeAt + 1);
      if (at < 0) return yield `the image data of image ${images} runs past the end of the file`;
      yield { width, height, minCodeSize, dataOffset: codeSizeAt + 1 };
    } else {
      return yield `byte ${at} (0x${block.toString(16).padStart(2, '0')}) starts no GIF block`;
    }
  }
}
