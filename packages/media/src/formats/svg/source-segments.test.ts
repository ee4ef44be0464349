import { describe, expect, it } from 'vitest';
import { MediaError, process } from '@glimpse/media';
import { sourcePathSegments } from './source-segments.js';
import { failsWith } from '../../../../../test/support/typed-errors.js';

describe('path segments counted in the source', () => {
  it('counts each command by its arity, implicit repeats and closing lines included', () => {
    // M with two extra pairs (2 lines), L, H, V, C, Z; a polyline of 4 points (3 lines).
    const svg = `<svg><path d="M0 0 1 1 2 2 L3 3 H4 V5 C1 1 2 2 3 3z"/><polyline points='0,0 1,1 2,2 3,3'/></svg>`;
    expect(sourcePathSegments(svg)).toBe(7 + 3);
    expect(sourcePathSegments('<svg><path id="x" d=""/></svg>')).toBe(0);
  });

  it('refuses a path with more segments than the render budget draws, before usvg parses it', async () => {
    const d = `M0 0${' L1000 1000 L0 0'.repeat(550_000)}`;
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><path stroke="black" d="${d}"/></svg>`;
    const error = await failsWith(process(new TextEncoder().encode(svg)), MediaError, 'E_TOO_COMPLEX');
    expect(error.message).toContain('its path data has 1100000 segments');
  });
});
