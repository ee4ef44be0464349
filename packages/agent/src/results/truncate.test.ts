import { describe, expect, it } from 'vitest';
import type { Part } from '../types.js';
import { truncateToolText } from './truncate.js';

const image: Part = { type: 'image', mediaType: 'image/png', data: 'A'.repeat(100_000) };
const texts = (parts: Part[]) => parts.filter((part) => part.type === 'text').map((part) => part.text);

describe('truncateToolText', () => {
  it('leaves output within the limit alone', () => {
    const parts: Part[] = [{ type: 'text', text: 'short' }, image];
    expect(truncateToolText(parts, { maxChars: 10 })).toEqual(parts);
  });

  it('keeps head and tail over all text parts, marks the cut, and never touches media', () => {
    const parts: Part[] = [{ type: 'text', text: 'a'.repeat(60) }, image, { type: 'text', text: 'b'.repeat(60) }];
    const out = truncateToolText(parts, { maxChars: 40 });
    expect(out[1]).toBe(image);
    expect(texts(out)).toEqual([`${'a'.repeat(20)}\n[… 80 characters of tool output cut here …]\n`, 'b'.repeat(20)]);
    expect(
      texts(out)
        .join('')
        .replace(/\n\[…[^\]]*\]\n/, ''),
    ).toHaveLength(40);
  });

  it('keeps only the head when asked', () => {
    const out = truncateToolText([{ type: 'text', text: '0123456789' }], { maxChars: 4, keep: 'head' });
    expect(texts(out)).toEqual(['0123\n[… 6 characters of tool output cut here …]\n']);
  });

  it('replaces text parts that fall wholly inside the cut by the marker', () => {
    const parts: Part[] = ['x'.repeat(10), 'middle', 'more', 'y'.repeat(10)].map(
      (text): Part => ({ type: 'text', text }),
    );
    expect(texts(truncateToolText(parts, { maxChars: 20 }))).toEqual([
      'x'.repeat(10),
      '\n[… 10 characters of tool output cut here …]\n',
      'y'.repeat(10),
    ]);
  });

  it('never splits a surrogate pair', () => {
    const out = texts(truncateToolText([{ type: 'text', text: '😀'.repeat(10) }], { maxChars: 5, keep: 'head' }));
    expect(out[0]!.startsWith('😀😀\n')).toBe(true);
  });
});
