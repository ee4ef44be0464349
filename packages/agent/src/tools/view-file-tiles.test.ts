import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import * as make from '../../../../test/fixtures/make.js';
import { MemoryFileSystem } from '../fs/memory-file-system.js';
import type { CapabilitiesQuery } from '../route/capabilities.js';
import type { Part, ToolResult } from '../types.js';
import { createFileTools } from './file-tools.js';

const CLAUDE: CapabilitiesQuery = { provider: 'anthropic', model: 'claude-sonnet-4-5' };
const textOf = (result: ToolResult) => result.parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n');
const images = (result: ToolResult) =>
  result.parts.filter((p): p is Extract<Part, { type: 'image' }> => p.type === 'image');

let fileSystem: MemoryFileSystem;
beforeAll(async () => {
  fileSystem = new MemoryFileSystem({
    cwd: '/desk',
    files: {
      '/desk/page.png': await make.screenshotPng({ width: 1440, height: 9000 }),
      '/desk/retina.png': await make.screenshotPng({ width: 2400, height: 1500 }),
      '/desk/photo.jpg': await make.photoJpeg({ width: 6000, height: 4000 }),
      '/desk/logo.svg': make.svg(),
      '/desk/doc.pdf': await make.pdf(),
    },
  });
});

describe('view_file tells the model when text cannot survive the fit', () => {
  it('a full-page capture viewed whole gets the factor and the way to look closer', async () => {
    const result = await createFileTools({ fileSystem, route: CLAUDE }).viewFile.execute({ path: 'page.png' });
    expect(result.isError).toBe(false);
    const text = textOf(result);
    // 1440×9000 → 251×1568: 1/5.74 of its size.
    expect(text).toContain('page.png is shown at 1/5.74 of its size: text of ordinary size cannot be read');
    expect(text).toContain('call view_file with {"path": "page.png", "tiles": true} (12 tiles at full resolution)');
    expect(text).toContain('"region"');
    // Never tiled unasked: one image.
    expect(images(result)).toHaveLength(1);
  });

  it('says nothing for a view shrunk less than half, nor for a photo', async () => {
    const tools = createFileTools({ fileSystem, route: CLAUDE });
    expect(textOf(await tools.viewFile.execute({ path: 'retina.png' }))).not.toContain('cannot be read');
    expect(textOf(await tools.viewFile.execute({ path: 'photo.jpg' }))).not.toContain('cannot be read');
  });
});

describe('view_file tiles', () => {
  it('returns the page in tiles at full resolution, each labelled with its place, in reading order', async () => {
    const result = await createFileTools({ fileSystem, route: CLAUDE }).viewFile.execute({
      path: 'page.png',
      tiles: true,
    });
    expect(result.isError).toBe(false);
    const tiles = images(result);
    expect(tiles).toHaveLength(12);
    for (const tile of tiles) {
      const meta = await sharp(Buffer.from(tile.data, 'base64')).metadata();
      expect(meta.width).toBe(1440);
      expect(Math.ceil(1440 / 28) * Math.ceil(meta.height! / 28)).toBeLessThanOrEqual(1568);
    }
    const text = textOf(result);
    expect(text).toContain('page.png (1440x9000) in 12 tiles (1 across, 12 down)');
    expect(text).toContain('[tile 1 of 12: x 0, y 0, 1440x');
    expect(text).toContain('[tile 12 of 12: x 0, y ');
    // Each label comes right before its image.
    const labelThenImage = result.parts.findIndex((p) => p.type === 'text' && p.text.startsWith('[tile 2 of 12'));
    expect(result.parts[labelThenImage + 1]?.type).toBe('image');
  });

  it('keeps to the tile budget and says what was left out and how to ask for it', async () => {
    const result = await createFileTools({ fileSystem, route: CLAUDE, maxTiles: 5 }).viewFile.execute({
      path: 'page.png',
      tiles: true,
    });
    expect(images(result)).toHaveLength(5);
    expect(textOf(result)).toMatch(
      /\[left out by the tile budget \(5\): tiles 6–12, from y \d+ to 9000\. View them with region/,
    );
  });

  it('says tiles does not apply to an SVG or a PDF, and shows them as it would without', async () => {
    const tools = createFileTools({ fileSystem, route: CLAUDE });
    const svg = await tools.viewFile.execute({ path: 'logo.svg', tiles: true });
    expect(svg.isError).toBe(false);
    expect(images(svg)).toHaveLength(1);
    expect(textOf(svg)).toContain('tiles applies to raster images');
    const pdf = await tools.viewFile.execute({ path: 'doc.pdf', tiles: true });
    expect(pdf.isError).toBe(false);
    expect(textOf(pdf)).toContain('tiles applies to images');
  });
});
