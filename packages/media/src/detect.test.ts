import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { concatBytes } from './formats/bytes.js';
import { detect } from './detect.js';
import * as make from '../../../test/fixtures/make.js';

const text = (value: string) => new TextEncoder().encode(value);
const bytes = (...values: number[]) => Uint8Array.from(values);
const concat = (...parts: Uint8Array[]) => concatBytes(parts);
const ftyp = (major: string, ...compatible: string[]) => {
  const box = concat(
    bytes(0, 0, 0, 16 + 4 * compatible.length),
    text('ftyp'),
    text(major),
    bytes(0, 0, 0, 0),
    ...compatible.map(text),
  );
  return concat(box, new Uint8Array(32));
};
const utf16 = (value: string, littleEndian: boolean) => {
  const out = new Uint8Array(2 + value.length * 2);
  out.set(littleEndian ? [0xff, 0xfe] : [0xfe, 0xff]);
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    out.set(littleEndian ? [code & 0xff, code >> 8] : [code >> 8, code & 0xff], 2 + i * 2);
  }
  return out;
};

describe('detect: formats we process', () => {
  it('names every fixture by its bytes', async () => {
    expect(detect(await make.photoJpeg())).toBe('image/jpeg');
    expect(detect(await make.screenshotPng())).toBe('image/png');
    expect(detect(await make.gif({ animated: true }))).toBe('image/gif');
    expect(detect(await make.webp())).toBe('image/webp');
    expect(detect(await make.webp({ lossless: true, alpha: true }))).toBe('image/webp');
    expect(detect(make.encodeBmp(make.naturalPixels(8, 8)))).toBe('image/bmp');
    expect(detect(make.encodeBmp(make.naturalPixels(8, 8), { coreHeader: true }))).toBe('image/bmp');
    expect(detect(make.svg())).toBe('image/svg+xml');
    expect(detect(await make.pdf())).toBe('application/pdf');
  });

  it('ignores what a file is called: only bytes count (JPEG bytes are JPEG)', async () => {
    const jpeg = await make.photoJpeg({ width: 16, height: 16 });
    expect(detect(jpeg)).toBe('image/jpeg');
  });

  it('finds %PDF- after leading junk within 1024 bytes, not beyond', async () => {
    const pdf = await make.pdf();
    expect(detect(concat(new Uint8Array(1000).fill(0x20), pdf))).toBe('application/pdf');
    expect(detect(concat(new Uint8Array(1100).fill(0x20), pdf))).toBeUndefined();
  });

  it('needs a known DIB header size after "BM"', () => {
    expect(detect(text('BMW owners club newsletter, issue 12'))).toBeUndefined();
  });
});

describe('detect: SVG text sniffing', () => {
  const root = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>';
  it.each([
    ['a bare root', root],
    ['leading whitespace', `\n\t  ${root}`],
    ['an XML declaration', `<?xml version="1.0" encoding="utf-8" standalone="no"?>\n${root}`],
    [
      'comments and processing instructions',
      `<!-- made by hand -->\n<?xml-stylesheet href="a.css"?><!-- two -->${root}`,
    ],
    [
      'a doctype',
      '<?xml version="1.0"?>\n<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">\n' +
        root,
    ],
    [
      'a doctype with an internal subset',
      `<!DOCTYPE svg [\n  <!ENTITY ns "http://x>y"> <!-- it's > here -->\n  <!ENTITY e 'a]b'>\n]>\n${root}`,
    ],
    ['a namespace prefix', '<svg:svg xmlns:svg="http://www.w3.org/2000/svg" width="4" height="4"></svg:svg>'],
    ['an open tag on its own', '<svg>'],
  ])('accepts %s', (_, source) => {
    expect(detect(text(source))).toBe('image/svg+xml');
  });

  it('accepts a UTF-8 BOM and UTF-16 in both byte orders', () => {
    expect(detect(concat(bytes(0xef, 0xbb, 0xbf), text(`<?xml version="1.0"?>${root}`)))).toBe('image/svg+xml');
    expect(detect(utf16(`<?xml version="1.0" encoding="UTF-16"?>\n${root}`, true))).toBe('image/svg+xml');
    expect(detect(utf16(root, false))).toBe('image/svg+xml');
  });

  it.each([
    ['HTML with inline SVG', '<!DOCTYPE html><html><body><svg width="10" height="10"></svg></body></html>'],
    ['XML with another root', '<?xml version="1.0"?><rss version="2.0"><svg/></rss>'],
    ['an element that only starts with svg', '<svgfoo width="1"/>'],
    ['an unterminated comment', '<!-- <svg width="1"/>'],
    ['an unterminated XML declaration', '<?xml version="1.0" <svg/>'],
    ['plain text mentioning svg', 'Please attach the <svg> file'],
    ['JSON', '{"svg": "<svg/>"}'],
  ])('rejects %s', (_, source) => {
    expect(detect(text(source))).toBeUndefined();
  });

  it('stops looking after 64 KB of prolog', () => {
    const comment = `<!-- ${'x'.repeat(70 * 1024)} -->`;
    expect(detect(text(comment + root))).toBeUndefined();
  });
});

describe('detect: formats we only name', () => {
  it('TIFF in both byte orders, and BigTIFF', async () => {
    const tiff = new Uint8Array(
      await sharp({ create: { width: 8, height: 8, channels: 3, background: '#f00' } })
        .tiff()
        .toBuffer(),
    );
    expect(detect(tiff)).toBe('image/tiff');
    expect(detect(concat(bytes(0x4d, 0x4d, 0x00, 0x2a, 0, 0, 0, 8), new Uint8Array(16)))).toBe('image/tiff');
    expect(detect(concat(bytes(0x49, 0x49, 0x2b, 0x00, 8, 0, 0, 0), new Uint8Array(16)))).toBe('image/tiff');
  });

  it('AVIF written by sharp', async () => {
    const avif = new Uint8Array(
      await sharp({ create: { width: 8, height: 8, channels: 3, background: '#0f0' } })
        .avif({ effort: 0 })
        .toBuffer(),
    );
    expect(detect(avif)).toBe('image/avif');
  });

  it('ISO-BMFF brands: major first, then compatible brands', () => {
    expect(detect(ftyp('heic', 'mif1', 'heic'))).toBe('image/heic');
    expect(detect(ftyp('heix', 'mif1'))).toBe('image/heic');
    expect(detect(ftyp('hevc', 'msf1'))).toBe('image/heic');
    expect(detect(ftyp('mif1', 'heic'))).toBe('image/heic');
    expect(detect(ftyp('mif1', 'miaf', 'avif'))).toBe('image/avif');
    expect(detect(ftyp('avis', 'msf1'))).toBe('image/avif');
    expect(detect(ftyp('mif1', 'miaf'))).toBe('image/heif');
    expect(detect(ftyp('msf1'))).toBe('image/heif');
    expect(detect(ftyp('isom', 'iso2', 'mp41'))).toBeUndefined(); // an MP4 video
  });

  it('JPEG XL codestream and container', () => {
    expect(detect(bytes(0xff, 0x0a, 0xfa, 0x7f, 0x01, 0x90))).toBe('image/jxl');
    expect(
      detect(concat(bytes(0, 0, 0, 0x0c, 0x4a, 0x58, 0x4c, 0x20, 0x0d, 0x0a, 0x87, 0x0a), new Uint8Array(20))),
    ).toBe('image/jxl');
  });

  it('ICO with a non-zero image count', () => {
    const entry = bytes(32, 32, 0, 0, 1, 0, 32, 0, 0, 4, 0, 0, 22, 0, 0, 0);
    expect(detect(concat(bytes(0, 0, 1, 0, 1, 0), entry))).toBe('image/x-icon');
    expect(detect(concat(bytes(0, 0, 1, 0, 0, 0), entry))).toBeUndefined();
  });
});

describe('detect: nothing recognisable', () => {
  it('returns undefined for empty, tiny, garbage and text input', () => {
    expect(detect(new Uint8Array(0))).toBeUndefined();
    expect(detect(bytes(0xff))).toBeUndefined();
    expect(detect(bytes(0x89, 0x50, 0x4e))).toBeUndefined();
    expect(detect(make.garbage(4096))).toBeUndefined();
    expect(detect(text('hello world, this is a plain text file'))).toBeUndefined();
  });
});
