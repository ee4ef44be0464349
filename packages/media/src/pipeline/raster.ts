// The raster job: a PNG, JPEG, GIF, WebP, BMP, TIFF, ICO, HEIC, HEIF or AVIF, read once by its format's
// probe, then sent untouched when its route takes it as it is and a strict read finds nothing wrong, or
// decoded, turned upright, resized and re-encoded within the limits.
import type { MetadataRemoval } from '../formats/format.js';
import type { Limits } from '../presets/limits.js';
import { fitsWorkingSize, fitWorkingSize } from '../presets/working-size.js';
import type { Deadline } from '../runtime/deadline.js';
import type { ProcessResult, ProcessStep, ProcessWarning, Region, SendableImageType } from '../types.js';
import { profileToCarry, withProfile } from './colour-profile.js';
import { decodeToFit } from './decode-to-fit.js';
import { fitWithinLimits } from './fit.js';
import { releaseRasterBuffer } from '../raster/raster-buffers.js';
import { chooseEncoding } from './output-encoding.js';
import { integrityWarning, noDecoder } from './refusals.js';
import type { RasterSource } from './raster-source.js';
import { original, reencodedResult } from './result.js';
import { assertRegionInside, storedRegion } from './region.js';
import { recoveredWarning } from './truncation.js';

/**
 * Sends `source` as it is when its route takes it, it is a still, upright and within the limits, and its
 * format's strict reader finds nothing wrong; otherwise decodes it and re-encodes it to fit. A file whose
 * structure is damaged beyond repair is `E_CORRUPT`.
 */
export async function processRaster(
  source: RasterSource,
  limits: Limits,
  deadline: Deadline,
  region?: Region,
): Promise<ProcessResult> {
  const { bytes, format, info } = source;
  const warnings: ProcessWarning[] = [];
  if (region !== undefined) assertRegionInside(region, source.upright);
  // What strict decoders check before showing pixels: a damaged critical chunk is refused, the rest repaired by re-encoding.
  const integrity = format.integrity;
  let damage = integrity?.check(bytes);
  if (damage) warnings.push(integrityWarning(damage, format.label));
  const mustConvert = format.mustConvert?.(info) ?? false;
  const accepted = limits.accepts.find((type) => type === format.mediaType);
  if (
    accepted &&
    region === undefined &&
    !mustConvert &&
    !damage &&
    (info.orientation === 1 || format.orientedByReaders) &&
    info.frames <= 1 &&
    fitsWorkingSize(source.stored, limits) &&
    bytes.byteLength <= limits.maxBytes
  ) {
    // What would be sent: the file less its metadata (Exif, XMP, …: cut out whole) unless keepMetadata.
    const sent =
      limits.keepMetadata || !format.withoutMetadata ? { data: bytes, removed: [] } : format.withoutMetadata(bytes);
    // Sent only when its format's strictest reader reads every byte of that without complaint: costs about
    // a decode (docs/formats-and-errors.md), and only here, where nothing else decodes the file.
    // (`check` has just passed on what is sent: the read need not repeat it, every PNG chunk CRC.)
    damage =
      (sent.data === bytes ? undefined : integrity?.check(sent.data)) ?? (await integrity?.verify(sent.data, true));
    deadline.check('Checking the image data');
    if (!damage) return passedThrough(source, accepted, sent);
    warnings.push(integrityWarning(damage, format.label));
  }
  if (!format.hasDecoder()) throw noDecoder(source, limits, accepted !== undefined, damage);
  return converted(source, limits, deadline, warnings, mustConvert, region);
}

/** The file as it came, or less its metadata (`sent`, checked as strictly). */
function passedThrough(source: RasterSource, mediaType: SendableImageType, sent: MetadataRemoval): ProcessResult {
  const { data, removed } = sent;
  return {
    data,
    mediaType,
    ...source.stored,
    bytes: data.byteLength,
    original: original(source.info),
    resized: false,
    reencoded: false,
    steps: removed.length > 0 ? ['metadata-removed'] : [],
    warnings: [],
  };
}

/**
 * Decodes, turns upright, resizes and re-encodes. The target comes from the header, so a decoder can
 * deliver rows already shrunk (JPEG's DCT scaling, libwebp's rescaler) and the resizer and orientation
 * work on rows as they arrive: the fitted output is the only image that exists whole. Re-fitting for
 * maxBytes works from that raster: the image is never decoded again.
 */
async function converted(
  source: RasterSource,
  limits: Limits,
  deadline: Deadline,
  warnings: ProcessWarning[],
  mustConvert: boolean,
  region: Region | undefined,
): Promise<ProcessResult> {
  const { bytes, format, info, stored } = source;
  // A region is cut as stored, then fitted on its own: its pixels fill the working size.
  const crop = region === undefined ? undefined : storedRegion(region, stored, info.orientation);
  const kept = crop ?? stored;
  const fitted = fitWorkingSize(kept, limits);
  const decoded = await decodeToFit({
    ...(crop !== undefined && { crop }),
    decode: (job) => format.decode({ ...job, facts: info, maxInputPixels: limits.maxInputPixels }),
    bytes,
    stored,
    fitted,
    orientation: info.orientation,
    deadline,
  });
  try {
    // Everything from here gives the raster's buffer back, a deadline passed at the last band too.
    deadline.check('Decoding the image');
    if (decoded.damaged)
      warnings.push({
        code: 'W_REPAIRED',
        message: `Part of the image data is damaged (${decoded.damaged}); the decoder filled in what it could not read, so parts of the image may show grey or wrongly coloured bands.`,
      });
    const steps: ProcessStep[] = [];
    const recovered = decoded.recovered && recoveredWarning(decoded.recovered, info.orientation);
    if (recovered) {
      steps.push('recovered');
      warnings.splice(0, warnings.length, recovered); // says more than "repaired"
    }
    if (info.frames > 1) steps.push('first-frame');
    if ('pages' in info && info.pages > 1) steps.push('first-page');
    if (region !== undefined) steps.push('cropped');
    if (info.orientation !== 1) steps.push('oriented');
    const resized = fitted.width !== kept.width || fitted.height !== kept.height;
    if (resized) steps.push('resized');
    const preferred = chooseEncoding(
      { source: format.mediaType, lossless: decoded.lossless, hasAlpha: decoded.hasAlpha },
      limits.accepts,
    );
    if (preferred.type !== format.mediaType || mustConvert) steps.push('converted');
    // The pixels are still in the source's colour space: its ICC profile goes with them, in room the fit leaves.
    const profile = await profileToCarry(source.probed, limits.maxBytes);
    const output = await fitWithinLimits({
      raster: decoded.raster,
      hasAlpha: decoded.hasAlpha,
      preferred,
      maxBytes: limits.maxBytes,
      accepts: limits.accepts,
      ...(profile && { reserve: profile.reserve }),
      deadline,
    });
    const result = reencodedResult(withProfile(output, profile), info, steps, resized, warnings);
    return region === undefined ? result : { ...result, region };
  } finally {
    // The output is encoded bytes, never a view of the raster: the next job may have its buffer.
    releaseRasterBuffer(decoded.raster.data);
  }
}
