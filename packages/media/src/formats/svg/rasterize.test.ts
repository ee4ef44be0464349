import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { initWasm, Resvg } from '@resvg/resvg-wasm';
import sharp from 'sharp';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { process as fit } from '@glimpse/media';
import { decodeIndependently } from '../../../../../test/support/pixels.js';

const encode = (text: string) => new TextEncoder().encode(text);

afterEach(() => vi.restoreAllMocks());

describe('SVG rendering', () => {
  it('starts even when the host app initialised resvg-wasm first', async () => {
    const wasm = await readFile(createRequire(import.meta.url).resolve('@resvg/resvg-wasm/index_bg.wasm'));
    await initWasm(wasm);
    const result = await fit(
      encode(
        '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><rect width="4" height="4" fill="red"/></svg>',
      ),
    );
    expect(result.mediaType).toBe('image/png');
  });

  it('writes straight alpha: 50 % green is (0,128,0,128), not the premultiplied (0,64,0,128)', async () => {
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8" fill="green" fill-opacity="0.5"/></svg>';
    const decoded = await decodeIndependently((await fit(encode(svg))).data);
    expect(Array.from(decoded.data.subarray(0, 4))).toEqual([0, 128, 0, 128]);
  });

  it('keeps the colour of faint pixels (alpha 10 %)', async () => {
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8" fill="#ff8000" fill-opacity="0.1"/></svg>';
    const [r, g, b] = (await decodeIndependently((await fit(encode(svg))).data)).data;
    expect(r).toBe(255);
    expect(Math.abs(g! - 128)).toBeLessThanOrEqual(6);
    expect(b).toBe(0);
  });
});

describe('SVG text no font covers', () => {
  it('warns (W_MISSING_GLYPHS) and names the scripts that could not be drawn; Greek and basic Cyrillic are bundled', async () => {
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="60"><text x="4" y="40">Привет κόσμε 你好 안녕 &#x1F600;</text></svg>';
    const result = await fit(encode(svg));
    expect(result.warnings).toEqual([
      {
        code: 'W_MISSING_GLYPHS',
        message: expect.stringContaining('emoji, Han (Chinese characters), Hangul'),
        scripts: ['emoji', 'Han (Chinese characters)', 'Hangul'],
      },
    ]);
    const latin = await fit(
      encode(
        '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="40"><text x="4" y="30">Hello, wörld — 10 €</text></svg>',
      ),
    );
    expect(latin.warnings).toEqual([]);
  });

  const cjkFont = '/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf'; // Debian fonts-droid-fallback
  it('draws with fonts the caller supplies, and stops warning about what they cover', async () => {
    const svg = encode(
      '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="60"><rect width="200" height="60" fill="#fff"/><text x="4" y="40" font-size="30">你好</text></svg>',
    );
    const without = await fit(svg);
    const withFont = await fit(svg, { fonts: [new Uint8Array(await readFile(cjkFont))] });
    expect(without.warnings.map((w) => w.code)).toEqual(['W_MISSING_GLYPHS']);
    expect(withFont.warnings).toEqual([]);
    const dark = async (png: Uint8Array) =>
      (await decodeIndependently(png)).data.filter((v, i) => i % 4 === 0 && v < 128).length;
    expect(await dark(without.data)).toBe(0);
    expect(await dark(withFont.data)).toBeGreaterThan(50);
  });

  it('refuses fonts that are not byte arrays', async () => {
    await expect(
      fit(encode('<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>'), {
        fonts: ['Arial'] as unknown as Uint8Array[],
      }),
    ).rejects.toMatchObject({ code: 'E_INVALID_OPTIONS' });
  });
});

describe('SVG images glimpse does not fetch', () => {
  it('warns (W_EXTERNAL_IMAGES) about images drawn from files or URLs; data: URIs and #id references are drawn', async () => {
    const pixel = Buffer.from(
      await sharp({ create: { width: 1, height: 1, channels: 3, background: '#000' } })
        .png()
        .toBuffer(),
    ).toString('base64');
    const svg = (images: string) =>
      encode(
        `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="100" height="50"><rect width="100" height="50" fill="#fff"/>${images}</svg>`,
      );
    const linked = await fit(
      svg(
        '<image href="https://example.com/a.png" width="50" height="50"/><image xlink:href=\'file:///tmp/b.png\' x="50" width="50" height="50"/><image href="https://example.com/a.png"/>',
      ),
    );
    expect(linked.warnings).toEqual([
      {
        code: 'W_EXTERNAL_IMAGES',
        message: expect.stringContaining(
          '2 images from a file or URL ("https://example.com/a.png", "file:///tmp/b.png")',
        ),
        references: ['https://example.com/a.png', 'file:///tmp/b.png'],
      },
    ]);
    const inside = await fit(
      svg(
        `<image href="data:image/png;base64,${pixel}" width="50" height="50"/><filter id="f"><feImage href="#r"/></filter><rect id="r" width="1" height="1"/>`,
      ),
    );
    expect(inside.warnings).toEqual([]);
    // The embedded image is drawn: black over the white background.
    expect((await decodeIndependently(inside.data)).data[(25 * 100 + 25) * 4]).toBeLessThan(16);
  });

  it('warns about shapes and paints taken from other SVG files, which resvg leaves out', async () => {
    const svg = encode(
      `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="100" height="50">
        <defs><linearGradient id="g"><stop offset="0" stop-color="#000"/></linearGradient><rect id="own" width="10" height="10"/></defs>
        <rect width="100" height="50" fill="#fff"/>
        <use xlink:href="icons.svg#own" x="50"/>
        <rect x="60" width="30" height="50" style="fill: url('paints.svg#g')"/>
        <use href="#own" y="40"/><rect x="90" width="10" height="10" fill="url(#g)"/>
      </svg>`,
    );
    const out = await fit(svg);
    expect(out.warnings).toEqual([
      {
        code: 'W_EXTERNAL_IMAGES',
        message: expect.stringContaining(
          '2 images, shapes or paints from a file or URL ("icons.svg#own", "paints.svg#g"), which glimpse never fetches',
        ),
        references: ['icons.svg#own', 'paints.svg#g'],
      },
    ]);
    // What the warning says is missing is missing: the shape used from another file is not drawn (white at
    // 55,5, where the file's own #own draws black at 5,45), while the #id references are.
    const { data } = await decodeIndependently(out.data);
    const red = (x: number, y: number) => data[(y * 100 + x) * 4]!;
    expect(red(55, 5)).toBeGreaterThan(240);
    expect(red(95, 5)).toBeLessThan(16);
    expect(red(5, 45)).toBeLessThan(16);
  });
});

describe('hostile SVGs are refused from cheap facts, fast', () => {
  const cases: Array<[string, string]> = [
    ['200,000 characters of text', `<text x="0" y="20">${'a'.repeat(200_000)}</text>`],
    [
      'feMorphology radius 1e6',
      '<filter id="f"><feMorphology radius="1e6"/></filter><rect width="400" height="400" filter="url(#f)"/>',
    ],
    [
      'feTurbulence with 1e6 octaves',
      '<filter id="f"><feTurbulence baseFrequency="0.05" numOctaves="1000000"/></filter><rect width="400" height="400" filter="url(#f)"/>',
    ],
    [
      'feConvolveMatrix of order 1000',
      '<filter id="f"><feConvolveMatrix order="1000"/></filter><rect width="400" height="400" filter="url(#f)"/>',
    ],
    [
      'a blur applied to 500 elements',
      `<filter id="f"><feGaussianBlur stdDeviation="5"/></filter>${'<rect width="400" height="400" filter="url(#f)"/>'.repeat(500)}`,
    ],
    ['elements nested 5,000 deep', `${'<g>'.repeat(5000)}<rect width="4" height="4"/>${'</g>'.repeat(5000)}`],
    ['15,000 characters of text', `<text x="0" y="20">${'M'.repeat(15_000)}</text>`],
    [
      'a 2,000-character text drawn 100 times through <use> (usvg lays it out for each)',
      `<defs><text id="t" y="20">${'abcd '.repeat(400)}</text></defs>${'<use xlink:href="#t"/>'.repeat(100)}`,
    ],
    ['<use> fanning out to 10^6 elements', useFanOut(6)],
    [
      'a stroke 1e9 wide, set in a style sheet',
      '<style>circle { stroke-width: 1e9 }</style><circle cx="200" cy="200" r="28" stroke="red"/>',
    ],
    ['850,000 dashes', '<path d="M0 0 L 300 300" stroke="black" stroke-dasharray="0.0005"/>'],
    [
      'noise over a circle far larger than the canvas',
      '<filter id="t"><feTurbulence baseFrequency="0.05" numOctaves="2"/></filter><circle cx="32" cy="32" r="9000" filter="url(#t)"/>',
    ],
    [
      '2,000 translucent full-canvas rects drawn through <use>',
      `<defs><rect id="r" width="400" height="400" fill="red" fill-opacity="0.5"/></defs>${'<use xlink:href="#r"/>'.repeat(2000)}`,
    ],
    [
      '1,000 full-canvas groups each drawn into a layer of its own (opacity)',
      '<g opacity="0.5"><rect width="400" height="400"/></g>'.repeat(1000),
    ],
    [
      'a filter whose id another cheap filter also has (usvg uses the last one)',
      '<filter id="f"><feOffset dx="1"/></filter><rect width="400" height="400" filter="url(#f)"/><filter id="f"><feTurbulence baseFrequency="0.9" numOctaves="100000"/></filter>',
    ],
    [
      '<use> fanning out through an id a small element also has',
      `${useFanOut(6).replace('<defs>', '<defs><g id="u6"/>')}`,
    ],
    // Markers: usvg copies a marker's content onto every vertex it marks while parsing (20,000 copies: 2.7 s of CPU).
    ['marker-mid on a path of 20,000 vertices', markedPath(20_000, 'marker-mid="url(#m)"')],
    ['marker set for all kinds in a style sheet', `<style>path { marker: url(#m) }</style>${markedPath(20_000, '')}`],
    ['marker-mid inherited from a group', `<g marker-mid="url(#m)">${markedPath(20_000, '')}</g>`],
    [
      'marker-mid in a style attribute, on a polyline',
      `${dot}<polyline style="marker-mid: url('#m')" points="${'1 2 3 4 '.repeat(10_000)}"/>`,
    ],
    [
      'marker-mid on 400 arcs of radius 1e12 (usvg makes 150 curves of each)',
      `${dot}<path marker-mid="url(#m)" fill="none" stroke="black" d="M1 1${' a1e12 1e12 0 1 1 1 0'.repeat(400)}"/>`,
    ],
    [
      'a marker of 1,000 elements on a 60-point polyline',
      `<marker id="m">${'<rect width="1" height="1"/>'.repeat(1000)}</marker><polyline marker-mid="url(#m)" points="${'1 2 '.repeat(60)}"/>`,
    ],
    [
      'a marker drawn on the vertices of another marker',
      `${dot}<marker id="n"><path marker-mid="url(#m)" d="M0 0${' L1 1'.repeat(300)}"/></marker><path marker-mid="url(#n)" d="M0 0${' L1 1'.repeat(300)}"/>`,
    ],
    [
      'a long path drawn through <use> inside a group with marker-mid',
      `${dot}<defs><path id="p" d="M0 0${' L1 1'.repeat(20_000)}"/></defs><g marker-mid="url(#m)"><use xlink:href="#p"/></g>`,
    ],
    [
      'CSS blur on 100 full-size elements',
      `<style>rect { filter: blur(3px) }</style>${'<rect width="400" height="400" style="filter: blur(3px)"/>'.repeat(100)}`,
    ],
  ];
  for (const [name, body] of cases) {
    it(name, async () => {
      // Refused from cheap facts: resvg never draws it (drawing is what took minutes).
      const render = vi.spyOn(Resvg.prototype, 'render');
      await expect(
        fit(
          encode(
            `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="400" height="400">${body}</svg>`,
          ),
        ),
      ).rejects.toMatchObject({ code: 'E_TOO_COMPLEX' });
      expect(render).not.toHaveBeenCalled();
    });
  }

  it('still renders what drawings do: <use> of a symbol 1,000 times, dashed grid lines, a blurred background, a 5,000-character text', async () => {
    const body = [
      useFanOut(3),
      `<filter id="b"><feGaussianBlur stdDeviation="8"/></filter><rect width="400" height="400" fill="#eee" filter="url(#b)"/>`,
      Array.from({ length: 40 }, (_, i) => `<path d="M0 ${i * 10} H400" stroke="#ccc" stroke-dasharray="4 2"/>`).join(
        '',
      ),
      `<text x="0" y="20" font-size="4">${'lorem ipsum '.repeat(416)}</text>`,
    ].join('');
    expect(
      (
        await fit(
          encode(
            `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="400" height="400">${body}</svg>`,
          ),
        )
      ).mediaType,
    ).toBe('image/png');
  });

  it('says what a marker refusal is about: how many copies, and to mark fewer vertices', async () => {
    await expect(
      fit(
        encode(
          `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400">${markedPath(20_000, 'marker-mid="url(#m)"')}</svg>`,
        ),
      ),
    ).rejects.toMatchObject({
      code: 'E_TOO_COMPLEX',
      message: expect.stringMatching(/20001 copies of markers.*mark fewer vertices/),
      details: { markerCopies: 20_001 },
    });
  });

  it('still renders what diagrams do with markers: 300 arrows with a head each, a 2,000-point polyline dotted at every vertex', async () => {
    const arrow =
      '<marker id="a" markerWidth="10" markerHeight="7" refX="10" refY="3.5" orient="auto"><polygon points="0 0, 10 3.5, 0 7"/></marker>';
    const arrows = Array.from(
      { length: 300 },
      (_, i) => `<line x1="${i}" y1="0" x2="${i}" y2="300" stroke="black" marker-end="url(#a)"/>`,
    ).join('');
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400"><style>.dots { marker-mid: url(#m) }</style>${arrow}${dot}${arrows}<polyline class="dots" fill="none" stroke="blue" points="${Array.from({ length: 2000 }, (_, i) => `${i % 400} ${(i * 3) % 400}`).join(' ')}"/></svg>`;
    expect((await fit(encode(svg))).mediaType).toBe('image/png');
  });

  it('refuses a filter over a large output, and says to lower maxEdge; the same SVG renders at a smaller maxEdge', async () => {
    const svg = encode(
      '<svg xmlns="http://www.w3.org/2000/svg" width="2000" height="2000"><filter id="f"><feMorphology radius="4"/></filter><rect width="2000" height="2000" filter="url(#f)"/></svg>',
    );
    await expect(fit(svg)).rejects.toMatchObject({
      code: 'E_TOO_COMPLEX',
      message: expect.stringMatching(/2000x2000 pixels.*lower maxEdge/),
    });
    expect((await fit(svg, { maxEdge: 500 })).width).toBe(500);
  });

  it('refuses painting a large output many times over, and says to lower maxEdge; the same SVG renders at a smaller maxEdge', async () => {
    const svg = encode(
      `<svg xmlns="http://www.w3.org/2000/svg" width="2000" height="2000">${'<rect width="2000" height="2000" fill="#08f" fill-opacity="0.1"/>'.repeat(200)}</svg>`,
    );
    await expect(fit(svg)).rejects.toMatchObject({
      code: 'E_TOO_COMPLEX',
      message: expect.stringMatching(/paints about 200 times the area of its 2000x2000-pixel canvas.*lower maxEdge/),
      details: { paintedPixels: 8e8 },
    });
    expect((await fit(svg, { maxEdge: 200 })).width).toBe(200);
  });

  it('refuses a large embedded image drawn many times (each draw decodes it again); drawn once it renders', async () => {
    const png = Buffer.from(await solidPng(2000, 2000)).toString('base64');
    const svg = (uses: number) =>
      encode(
        `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="40" height="40"><defs><image id="i" width="4" height="4" xlink:href="data:image/png;base64,${png}"/></defs>${'<use xlink:href="#i"/>'.repeat(uses)}</svg>`,
      );
    const render = vi.spyOn(Resvg.prototype, 'render');
    await expect(fit(svg(20))).rejects.toMatchObject({
      code: 'E_TOO_COMPLEX',
      message: expect.stringContaining('draws embedded images 21 times'),
    });
    expect(render).not.toHaveBeenCalled(); // refused before resvg decodes the image 21 times
    expect((await fit(svg(1))).mediaType).toBe('image/png');
    expect(render).toHaveBeenCalledTimes(1);
  });

  it('still renders ordinary filters: a drop shadow and a small morphology', async () => {
    const body =
      '<filter id="f"><feGaussianBlur stdDeviation="3"/><feOffset dx="2" dy="2"/><feMorphology radius="2"/></filter><rect x="10" y="10" width="50" height="50" filter="url(#f)"/>';
    expect(
      (await fit(encode(`<svg xmlns="http://www.w3.org/2000/svg" width="200" height="200">${body}</svg>`))).mediaType,
    ).toBe('image/png');
  });
});

describe('long outlines are refused from their segments and pixels (issue 11)', () => {
  // Measured (paint.ts): 100,000 random segments across a 1568-pixel canvas took 15.9 s of CPU as a 1-px
  // stroke, 30,000 4.7 s; 100,000 segments of 13 px in a 25-px square 13.5 s filled.
  const across = (segments: number, extent = 1568) => {
    const random = seeded(11);
    let d = `M${(random() * extent).toFixed(1)} ${(random() * extent).toFixed(1)}`;
    for (let i = 0; i < segments; i++) d += ` L${(random() * extent).toFixed(1)} ${(random() * extent).toFixed(1)}`;
    return d;
  };
  const curves = (segments: number, letter: 'C' | 'Q') => {
    const random = seeded(12);
    const point = () => `${(random() * 1568).toFixed(1)} ${(random() * 1568).toFixed(1)}`;
    let d = `M${point()}`;
    for (let i = 0; i < segments; i++) d += ` ${letter}${point()} ${point()}${letter === 'C' ? ` ${point()}` : ''}`;
    return d;
  };
  const points = (count: number) => across(count - 1).replace(/[ML]/g, '');
  const svg = (body: string) =>
    encode(
      `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="1568" height="1568">${body}</svg>`,
    );
  const cases: Array<[string, string, number]> = [
    [
      '100,000 long segments stroked 1 px wide (the reproducer)',
      `<path stroke="black" fill="none" d="${across(100_000)}"/>`,
      100_000,
    ],
    ['30,000 long segments stroked', `<path stroke="black" fill="none" d="${across(30_000)}"/>`, 30_000],
    ['100,000 long segments filled, nonzero', `<path fill="black" d="${across(100_000)}"/>`, 100_001],
    [
      '100,000 long segments filled, even-odd',
      `<path fill="black" fill-rule="evenodd" d="${across(100_000)}"/>`,
      100_001,
    ],
    ['10,000 long cubic curves stroked', `<path stroke="black" fill="none" d="${curves(10_000, 'C')}"/>`, 10_000],
    ['10,000 long quadratic curves stroked', `<path stroke="black" fill="none" d="${curves(10_000, 'Q')}"/>`, 10_000],
    [
      '10,000 long segments with 400-pixel dashes (20,000 dashes, under the dash limit)',
      `<path stroke="black" fill="none" stroke-dasharray="400 5" d="${across(10_000)}"/>`,
      10_000 + 20_000,
    ],
    [
      '20,000 long segments stroked 40 wide with round joins',
      `<path stroke="black" fill="none" stroke-width="40" stroke-linejoin="round" stroke-linecap="round" d="${across(20_000)}"/>`,
      20_000,
    ],
    ['a polyline of 50,000 points', `<polyline stroke="black" fill="none" points="${points(50_000)}"/>`, 49_999],
    ['a polygon of 50,000 points', `<polygon fill="black" points="${points(50_000)}"/>`, 50_000],
    [
      'a path of 1,000 long segments drawn 100 times through <use>',
      `<defs><path id="p" stroke="black" fill="none" d="${across(1_000)}"/></defs>${'<use xlink:href="#p"/>'.repeat(100)}`,
      100_000,
    ],
    [
      '100,000 segments of 13 px crossing in a 25-pixel square, filled',
      `<path fill="black" d="${across(100_000, 25)}"/>`,
      100_001,
    ],
  ];
  for (const [name, body, segments] of cases) {
    it(name, async () => {
      const refusal = await fit(svg(body)).catch((error: unknown) => error);
      expect(refusal).toMatchObject({
        code: 'E_TOO_COMPLEX',
        message: expect.stringMatching(/outlining \d+ path segments \d+ pixels long in all.*paths with fewer segments/),
      });
      // The segments it counted are the ones drawn (dashes add theirs).
      const counted = (refusal as { details: { pathSegments: number } }).details.pathSegments;
      expect(counted).toBeGreaterThanOrEqual(segments);
    });
  }

  it('names the outline in the refusal: 100,000 segments of ~820 px, 1e8 pixels at most', async () => {
    const refusal = await fit(svg(`<path stroke="black" fill="none" d="${across(100_000)}"/>`)).catch(
      (e: unknown) => e,
    );
    const { pathSegments, edgePixels } = (refusal as { details: { pathSegments: number; edgePixels: number } }).details;
    expect(pathSegments).toBe(100_000);
    // Random points in a 1568-pixel square are 0.5214 x 1568 = 818 px apart on average.
    expect(edgePixels / pathSegments).toBeGreaterThan(790);
    expect(edgePixels / pathSegments).toBeLessThan(845);
  });

  it('the same reproducer at maxEdge 200 still draws too long an outline: 100,000 segments are refused at any size', async () => {
    await expect(
      fit(svg(`<path stroke="black" fill="none" d="${across(100_000)}"/>`), { maxEdge: 200 }),
    ).rejects.toMatchObject({ code: 'E_TOO_COMPLEX' });
  });

  it('still renders a dense chart and a detailed map: 20,000 short segments in line series, 300 regions of 100 vertices', async () => {
    const random = seeded(13);
    const series = Array.from({ length: 100 }, (_, s) => {
      let y = 100 + s * 13;
      const values = Array.from({ length: 201 }, (_, i) => {
        y = Math.min(1560, Math.max(8, y + (random() - 0.5) * 12));
        return `${(8 + i * 7.75).toFixed(1)},${y.toFixed(1)}`;
      });
      return `<polyline fill="none" stroke="hsl(${s * 37},70%,40%)" stroke-width="1.5" points="${values.join(' ')}"/>`;
    });
    const regions = Array.from({ length: 300 }, () => {
      const [cx, cy, radius] = [random() * 1568, random() * 1568, 10 + random() * 60];
      const outline = Array.from({ length: 100 }, (_, i) => {
        const t = (2 * Math.PI * i) / 100;
        const r = radius * (0.8 + 0.2 * random());
        return `${(cx + r * Math.cos(t)).toFixed(2)} ${(cy + r * Math.sin(t)).toFixed(2)}`;
      });
      return `<path fill="#8c8" fill-opacity="0.6" stroke="#333" stroke-width="0.5" d="M${outline.join(' L')} Z"/>`;
    });
    const grid = Array.from(
      { length: 40 },
      (_, i) => `<path d="M0 ${i * 40} H1568 M${i * 40} 0 V1568" stroke="#ccc"/>`,
    );
    const result = await fit(svg([...grid, ...regions, ...series].join('')));
    expect(result).toMatchObject({ mediaType: 'image/png', width: 1568, height: 1568 });
  });
});

/** A deterministic generator of numbers in [0, 1). */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

/** A black grayscale PNG: 4 MP deflates to a few KB, and stays under the pixel limit. */
async function solidPng(width: number, height: number): Promise<Uint8Array> {
  const sharp = (await import('sharp')).default;
  return new Uint8Array(
    await sharp({ create: { width, height, channels: 3, background: '#000' } })
      .greyscale()
      .png({ compressionLevel: 9 })
      .toBuffer(),
  );
}

/** A marker: a translucent dot. */
const dot =
  '<marker id="m" markerWidth="8" markerHeight="8" refX="4" refY="4"><circle cx="4" cy="4" r="3" fill="red" fill-opacity="0.5"/></marker>';

/** `dot` and a path of `vertices` line segments across the canvas, with `attributes`. */
function markedPath(vertices: number, attributes: string): string {
  const d = Array.from({ length: vertices }, (_, i) => `L${(i * 7) % 400} ${(i * 13) % 400}`).join(' ');
  return `${dot}<path ${attributes} d="M0 0 ${d}" fill="none" stroke="black" stroke-width="0.1"/>`;
}

/** `levels` levels of ten <use> each of the level below: 10^levels rectangles once expanded. */
function useFanOut(levels: number): string {
  let defs = '<g id="u0"><rect width="1" height="1"/></g>';
  for (let level = 1; level <= levels; level++)
    defs += `<g id="u${level}">${`<use xlink:href="#u${level - 1}" x="1"/>`.repeat(10)}</g>`;
  return `<defs>${defs}</defs><use xlink:href="#u${levels}"/>`;
}
