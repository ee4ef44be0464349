// The two ends of the codec contract (contract.ts) for a raster held whole: a sink that collects
// rows into one, and a source that reads one a band at a time.
import type { RowLayout, RowSink, RowSource } from './contract.js';
import { anyTransparent } from './pixels.js';
import type { Raster } from '../types.js';

/** A sink that keeps every row, top row first whatever order they arrive in: for output-sized rasters, and tests. */
export interface RasterSink extends RowSink {
  /** The collected raster, once every row has arrived. */
  raster(): Raster;
  layout(): RowLayout;
}

export function rasterSink(): RasterSink {
  let layout: RowLayout | undefined;
  let data = new Uint8Array(0);
  let filled = 0;
  return {
    start(announced) {
      layout = announced;
      data = new Uint8Array(announced.width * announced.height * 4);
    },
    write(pixels, rows) {
      if (!layout) throw new Error('rows were written before start');
      const rowBytes = layout.width * 4;
      if (!layout.bottomUp) {
        data.set(pixels.subarray(0, rows * rowBytes), filled);
        filled += rows * rowBytes;
        return;
      }
      for (let r = 0; r < rows; r++, filled += rowBytes)
        data.set(pixels.subarray(r * rowBytes, (r + 1) * rowBytes), data.byteLength - filled - rowBytes);
    },
    layout() {
      if (!layout) throw new Error('the decoder never started');
      return layout;
    },
    raster() {
      const { width, height } = this.layout();
      if (filled !== data.byteLength)
        throw new Error(`the decoder delivered ${filled / (width * 4)} of ${height} rows`);
      return { data, width, height };
    },
  };
}

/** `raster` read as rows; `mayHaveAlpha` false promises every pixel is opaque. */
export function rasterSource(raster: Raster, mayHaveAlpha: boolean): RowSource {
  const rowBytes = raster.width * 4;
  return {
    width: raster.width,
    height: raster.height,
    mayHaveAlpha,
    rows: (y, count) => raster.data.subarray(y * rowBytes, (y + count) * rowBytes),
  };
}

/** Rows are handed over in bands of about this many bytes. */
const BAND_BYTES = 256 * 1024;

/**
 * Hands a raster that a codec decoded whole to `sink`, a band at a time: the bridge for codecs without a
 * row interface (they hold the decoded image, which their adapter says).
 */
export function writeRaster(raster: Raster, mayHaveAlpha: boolean, sink: RowSink): void {
  const { width, height } = raster;
  sink.start({ width, height, mayHaveAlpha });
  const rowBytes = width * 4;
  const bandRows = Math.max(1, Math.floor(BAND_BYTES / rowBytes));
  for (let y = 0; y < height; y += bandRows) {
    const rows = Math.min(bandRows, height - y);
    sink.write(raster.data.subarray(y * rowBytes, (y + rows) * rowBytes), rows);
  }
}

/** A sink passing rows on to `sink` and noting whether any pixel is not fully opaque (looked for only when the layout allows it). */
export function alphaWatch(sink: RowSink): RowSink & { sawTransparent(): boolean } {
  let look = false;
  let seen = false;
  let layoutWidth = 0;
  return {
    start(layout) {
      look = layout.mayHaveAlpha;
      layoutWidth = layout.width;
      sink.start(layout);
    },
    write(pixels, rows) {
      if (look && !seen) seen = anyTransparent({ data: pixels.subarray(0, rows * layoutWidth * 4) });
      sink.write(pixels, rows);
    },
    sawTransparent: () => seen,
  };
}
