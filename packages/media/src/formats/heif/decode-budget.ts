import { MediaError } from '../../errors.js';
import type { HeifLayout } from './layout.js';

/**
 * The probe's size is the clean aperture; a decoder also builds the whole stored image, and each grid tile, so
 * both are checked against `maxInputPixels` before anything is decoded (AV1 in media, HEVC in @glimpse/heif).
 */
export function assertHeifDecodeBudget(layout: HeifLayout, maxInputPixels: number): void {
  const grid = layout.grid;
  const stored = grid
    ? Math.max(grid.outputWidth * grid.outputHeight, grid.tileWidth * grid.tileHeight)
    : layout.width * layout.height;
  if (stored > maxInputPixels) {
    throw new MediaError(
      'E_TOO_MANY_PIXELS',
      `The image stores ${stored} pixels (${layout.width}×${layout.height}${grid ? ` in ${grid.columns}×${grid.rows} tiles of ${grid.tileWidth}×${grid.tileHeight}` : ''}); the limit is ${maxInputPixels}. Downscale it first, or raise maxInputPixels if it is trusted.`,
      { width: layout.width, height: layout.height, maxInputPixels },
    );
  }
}
