import { describe, expect, it } from 'vitest';
import { probe } from '../../probe.js';
import { MediaError } from '../../errors.js';
import { svg } from '../../../../../test/fixtures/make.js';
import { failsWith } from '../../../../../test/support/typed-errors.js';

const sizeOf = async (options: Parameters<typeof svg>[0]) => {
  const info = await probe(svg(options));
  return [info.width, info.height];
};

describe('probe: SVG intrinsic size', () => {
  it('uses width and height in px or unitless', async () => {
    expect(await sizeOf({ width: '240', height: '120' })).toEqual([240, 120]);
    expect(await sizeOf({ width: '240px', height: ' 120.4px ' })).toEqual([240, 120]);
    expect(await sizeOf({ width: '1e2', height: '50' })).toEqual([100, 50]);
  });

  it('converts absolute units at 96 px per inch and em at 16 px', async () => {
    expect(await sizeOf({ width: '72pt', height: '36pt' })).toEqual([96, 48]);
    expect(await sizeOf({ width: '2in', height: '1in' })).toEqual([192, 96]);
    expect(await sizeOf({ width: '2.54cm', height: '25.4mm' })).toEqual([96, 96]);
    expect(await sizeOf({ width: '10em', height: '5EM' })).toEqual([160, 80]);
    expect(await sizeOf({ width: '6pc', height: '1pc' })).toEqual([96, 16]);
  });

  it('falls back to the viewBox for percentages, and completes one side by its aspect ratio', async () => {
    expect(await sizeOf({ width: '100%', height: '100%', viewBox: '0 0 800 600' })).toEqual([800, 600]);
    expect(await sizeOf({ width: undefined, height: undefined, viewBox: '-10 -10 64,32' })).toEqual([64, 32]);
    expect(await sizeOf({ width: '400', height: undefined, viewBox: '0 0 800 600' })).toEqual([400, 300]);
    expect(await sizeOf({ width: 'auto', height: '30', viewBox: '0 0 20 10' })).toEqual([60, 30]);
  });

  it('defaults to 300x150 like browsers when nothing gives a size', async () => {
    expect(await sizeOf({ width: undefined, height: undefined })).toEqual([300, 150]);
    expect(await sizeOf({ width: '50%', height: undefined, viewBox: '0 0 0 10' })).toEqual([300, 150]);
    expect(await sizeOf({ width: '500', height: undefined })).toEqual([500, 150]);
  });

  it('reads through a prolog and a UTF-8 BOM', async () => {
    const prolog = '\uFEFF<?xml version="1.0"?>\n<!-- logo -->\n<!DOCTYPE svg [ <!ENTITY x "<svg width=\'1\'>"> ]>\n';
    expect(await sizeOf({ width: '31', height: '17', prolog })).toEqual([31, 17]);
    const info = await probe(svg());
    expect(info).toEqual({
      mediaType: 'image/svg+xml',
      bytes: expect.any(Number),
      width: 240,
      height: 120,
      orientation: 1,
      frames: 1,
      hasAlpha: true,
    });
  });

  it.each([
    ['an unclosed start tag', '<svg width="10" height="10"'],
    ['an unquoted attribute', '<svg width=10 height="10"></svg>'],
    ['an attribute without a value', '<svg hidden width="1"></svg>'],
    ['an unterminated value', '<svg width="10></svg>'],
  ])('refuses %s with E_SVG_INVALID', async (_, source) => {
    await failsWith(probe(new TextEncoder().encode(source)), MediaError, 'E_SVG_INVALID');
  });
});
