import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import * as make from '../../../../test/fixtures/make.js';
import { textPdf } from '../../../../test/fixtures/pdf-documents.js';
import { MemoryFileSystem } from '../fs/memory-file-system.js';
import type { CapabilitiesQuery } from '../route/capabilities.js';
import type { Part, ToolResult } from '../types.js';
import { toPiTool } from '../pi/pi-tools.js';
import { createFileTools } from './file-tools.js';
import { VIEW_FILE_TOOL_DEFINITION } from './view-file-arguments.js';

const CLAUDE: CapabilitiesQuery = { provider: 'anthropic', model: 'claude-sonnet-4-5' };
const textOf = (result: ToolResult) => result.parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n');
const images = (result: ToolResult) =>
  result.parts.filter((p): p is Extract<Part, { type: 'image' }> => p.type === 'image');
const sizeOf = async (part: Extract<Part, { type: 'image' }>) => {
  const meta = await sharp(Buffer.from(part.data, 'base64')).metadata();
  return { width: meta.width, height: meta.height };
};

let tools: ReturnType<typeof createFileTools>;
beforeAll(async () => {
  tools = createFileTools({
    fileSystem: new MemoryFileSystem({
      cwd: '/desk',
      files: {
        '/desk/capture.png': await make.screenshotPng({ width: 3000, height: 2000 }),
        '/desk/page.pdf': await textPdf({ pages: 2 }),
      },
    }),
    route: CLAUDE,
  });
});

describe('view_file region', () => {
  it('is declared in the JSON schema as {x, y, width, height}, beside tiles', () => {
    const { properties } = VIEW_FILE_TOOL_DEFINITION.parameters as {
      properties: Record<string, { type: string; required?: string[] }>;
    };
    expect(properties.region).toMatchObject({ type: 'object', required: ['x', 'y', 'width', 'height'] });
    expect(properties.tiles).toMatchObject({ type: 'boolean' });
  });

  it('shows the part at full resolution and maps its coordinates back to the original', async () => {
    const result = await tools.viewFile.execute({
      path: 'capture.png',
      region: { x: 100, y: 200, width: 800, height: 600 },
    });
    expect(result.isError).toBe(false);
    const [image] = images(result);
    expect(await sizeOf(image!)).toEqual({ width: 800, height: 600 });
    expect(textOf(result)).toContain(
      'shows only the region x 100, y 200, 800x600 of the 3000x2000 original, at 800x600 px',
    );
    expect(textOf(result)).toContain('multiply coordinates in it by 1 and add (100, 200)');
  });

  it('takes numbers sent as strings, and refuses a region that is not one or lies outside, saying why', async () => {
    const strings = await tools.viewFile.execute({
      path: 'capture.png',
      region: { x: '0', y: '0', width: '300', height: '200' },
    });
    expect(strings.isError).toBe(false);
    const bad = await tools.viewFile.execute({ path: 'capture.png', region: { x: 0, y: 0, width: 0, height: 5 } });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toContain('"region"');
    const outside = await tools.viewFile.execute({
      path: 'capture.png',
      region: { x: 2900, y: 0, width: 200, height: 100 },
    });
    expect(outside.isError).toBe(true);
    expect(textOf(outside)).toContain('3000×2000');
    const both = await tools.viewFile.execute({
      path: 'capture.png',
      region: { x: 0, y: 0, width: 1, height: 1 },
      tiles: true,
    });
    expect(both.isError).toBe(true);
  });

  it('draws a region of a PDF page (in points) as an image, and says which page', async () => {
    const result = await tools.viewFile.execute({
      path: 'page.pdf',
      pages: '2',
      region: { x: 60, y: 60, width: 300, height: 150 },
    });
    expect(result.isError).toBe(false);
    const [image] = images(result);
    const size = await sizeOf(image!);
    // 300×150 points drawn as large as Claude takes: 1,568 patches of 28 px.
    expect(Math.ceil(size.width! / 28) * Math.ceil(size.height! / 28)).toBeLessThanOrEqual(1568);
    expect(size.width).toBeGreaterThan(1000);
    expect(textOf(result)).toContain('page 2 of 2');
    expect(textOf(result)).toContain('300x150 points of the 612x792 points original');
  });

  it('reaches pi through the shared definition: the same schema, and a region call fitted for the model', async () => {
    const pi = toPiTool(tools.viewFile, {
      model: { api: 'anthropic-messages', provider: 'anthropic', id: 'claude-sonnet-4-5', input: ['text', 'image'] },
    });
    expect((pi.parameters as { properties: Record<string, unknown> }).properties).toHaveProperty('region');
    const result = await pi.execute('call', { path: 'capture.png', region: { x: 0, y: 0, width: 400, height: 300 } });
    const image = result.content.find((item) => item.type === 'image');
    expect(image).toBeDefined();
    const meta = await sharp(Buffer.from(image?.type === 'image' ? image.data : '', 'base64')).metadata();
    expect([meta.width, meta.height]).toEqual([400, 300]);
  });
});
