// Finds every image and PDF in a request body, whatever the provider's shape: any string that is a base64 data
// URL, or long base64 whose bytes start like a PNG, JPEG, GIF, WebP or PDF. Each comes back with its JSON
// path, so a test can assert where the media sit as well as what they are.
import sharp from 'sharp';

export interface WireMedia {
  /** JSON path, e.g. `messages.2.content.1.image_url.url`. */
  path: string;
  mediaType: string;
  bytes: Uint8Array;
  /** Characters the media take in the body (base64 and any data-URL prefix). */
  chars: number;
}

const SIGNATURES: ReadonlyArray<[string, number[]]> = [
  ['image/png', [0x89, 0x50, 0x4e, 0x47]],
  ['image/jpeg', [0xff, 0xd8, 0xff]],
  ['image/gif', [0x47, 0x49, 0x46, 0x38]],
  ['image/webp', [0x52, 0x49, 0x46, 0x46]],
  ['application/pdf', [0x25, 0x50, 0x44, 0x46]],
];

function sniff(bytes: Uint8Array): string | undefined {
  return SIGNATURES.find(([, magic]) => magic.every((byte, i) => bytes[i] === byte))?.[0];
}

function decodeBase64(text: string): Uint8Array | undefined {
  const body = text.startsWith('data:') ? text.slice(text.indexOf(',') + 1) : text;
  if (body.length < 64 || !/^[A-Za-z0-9+/]+={0,2}$/.test(body)) return undefined;
  return new Uint8Array(Buffer.from(body, 'base64'));
}

export function findWireMedia(body: unknown): WireMedia[] {
  const found: WireMedia[] = [];
  const walk = (value: unknown, path: string[]) => {
    if (typeof value === 'string') {
      const bytes = decodeBase64(value);
      const mediaType = bytes && sniff(bytes);
      if (bytes && mediaType) found.push({ path: path.join('.'), mediaType, bytes, chars: value.length });
    } else if (Array.isArray(value)) {
      value.forEach((item, i) => walk(item, [...path, String(i)]));
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, item] of Object.entries(value)) walk(item, [...path, key]);
    }
  };
  walk(body, []);
  return found;
}

/** Decodes an image strictly (sharp fails on any libpng/libjpeg warning) and returns its size. */
export async function decodeStrictly(bytes: Uint8Array): Promise<{ width: number; height: number; format: string }> {
  const { data, info } = await sharp(bytes, { failOn: 'warning' }).raw().toBuffer({ resolveWithObject: true });
  if (data.length !== info.width * info.height * info.channels) throw new Error('short pixel buffer');
  const { format } = await sharp(bytes).metadata();
  return { width: info.width, height: info.height, format: String(format) };
}
