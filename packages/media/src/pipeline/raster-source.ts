// The one value the raster job passes on: what a file's header said, read once by its format's probe, with
// its size as stored and as shown (orientation applied) decided here, and nowhere after.
import type { DecodableInfo, Probed, RasterFormat } from '../formats/format.js';
import { assertPixelBudget, type Limits } from '../presets/limits.js';
import type { Size } from '../raster/contract.js';
import { uprightSize } from '../raster/orient.js';

/**
 * What the pipeline knows of a raster file once its header is read, decided once and passed on: its format
 * record, the probe's facts, its size as stored and as shown (its orientation applied).
 */
export interface RasterSource {
  bytes: Uint8Array;
  format: RasterFormat<DecodableInfo>;
  probed: Probed<DecodableInfo>;
  info: DecodableInfo;
  /** As stored, before orientation: what the decoder delivers. */
  stored: Size;
  /** As shown, orientation applied: what the user knows and the output is fitted from. */
  upright: Size;
}

/** Reads the header of a file `format` recognised, and refuses a pixel bomb or a variant it does not read. */
export async function readRasterSource(
  bytes: Uint8Array,
  format: RasterFormat<DecodableInfo>,
  limits: Limits,
): Promise<RasterSource> {
  const probed = await format.probe(bytes);
  const { info } = probed;
  const stored = assertPixelBudget(info, limits);
  const refusal = format.refusal?.(info);
  if (refusal) throw refusal;
  return { bytes, format, probed, info, stored, upright: uprightSize(stored, info.orientation) };
}
