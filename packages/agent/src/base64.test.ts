import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { base64ToBytes, bytesToBase64 } from './base64.js';

describe('base64', () => {
  it('round-trips bytes of every length, matching Node', () => {
    for (const length of [0, 1, 2, 3, 4, 100, 0x8000 + 7, 200_001]) {
      const bytes = new Uint8Array(randomBytes(length));
      const text = bytesToBase64(bytes);
      expect(text).toBe(Buffer.from(bytes).toString('base64'));
      expect(base64ToBytes(text)).toEqual(bytes);
    }
  });

  it('accepts data URLs, the URL-safe alphabet, whitespace and missing padding', () => {
    const bytes = new Uint8Array([251, 255, 191, 0, 1]);
    expect(base64ToBytes('data:image/png;base64,+/+/AAE=')).toEqual(bytes);
    expect(base64ToBytes('-_-_AAE')).toEqual(bytes);
    expect(base64ToBytes('+/+/\n AAE=')).toEqual(bytes);
  });

  it('refuses text that is not base64', () => {
    expect(base64ToBytes('@@not base64@@')).toBeUndefined();
    expect(base64ToBytes('abcde')).toBeUndefined();
  });
});
