// What the strict request schemas of every wire API share (see request-schemas.ts).
import { z } from 'zod';

export const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
export const base64 = z.string().min(1).regex(BASE64, 'raw base64, no data-URL prefix');
export const dataUrl = (types: RegExp) =>
  z
    .string()
    .refine(
      (url) =>
        types.test(url.slice(5, url.indexOf(';'))) &&
        url.startsWith('data:') &&
        BASE64.test(url.slice(url.indexOf(',') + 1)),
      'a base64 data URL',
    );
export const jsonObject = z.record(z.string(), z.unknown());
export const jsonSchemaObject = z.looseObject({ type: z.literal('object') });
export const IMAGE_TYPES = z.enum(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

export function isJsonObject(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}
