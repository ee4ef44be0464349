// The refusals the raster job makes in words the caller can act on: a file too damaged to send or repair,
// and a format this installation cannot convert.
import { MediaError } from '../errors.js';
import type { IntegrityProblem } from '../formats/integrity-problem.js';
import { fitsWorkingSize } from '../presets/working-size.js';
import type { Limits } from '../presets/limits.js';
import { takersSentence } from '../presets/takers.js';
import type { ProcessWarning } from '../types.js';
import type { RasterSource } from './raster-source.js';

/** The warning for a file that is re-encoded because of `damage`; throws E_CORRUPT when the damage is fatal. */
export function integrityWarning(damage: IntegrityProblem, format: string): ProcessWarning {
  if (damage.fatal) {
    throw new MediaError(
      'E_CORRUPT',
      `The ${format} file is damaged: ${damage.problem}. Strict decoders refuse it; re-export or re-download it.`,
      { format },
    );
  }
  return { code: 'W_REPAIRED', message: `The file was re-encoded because ${damage.problem}.` };
}

/**
 * Why this format cannot be converted here, and what to do: which presets take it as it is (from the route
 * table); when this preset takes it, why this file could not go as it is (`damage`, or over which limit, in
 * the size as the image is shown: a HEIC's irot turns it); which package decodes it.
 */
export function noDecoder(
  { format, upright, bytes }: RasterSource,
  limits: Limits,
  accepted: boolean,
  damage: IntegrityProblem | undefined,
): MediaError {
  const { mediaType, label, decoderPackage } = format;
  const over = [
    ...(Math.max(upright.width, upright.height) > limits.maxEdge
      ? [`${upright.width}×${upright.height} px, over ${limits.maxEdge} px`]
      : fitsWorkingSize(upright, limits)
        ? []
        : [`${upright.width}×${upright.height} px, over the model's working size`]),
    ...(bytes.byteLength > limits.maxBytes ? [`${bytes.byteLength} bytes, over ${limits.maxBytes}`] : []),
  ];
  const notPassed = damage ? `it must be re-encoded first (${damage.problem})` : `it is over them (${over.join('; ')})`;
  const why = accepted ? ` This file cannot go as it is: ${notPassed}.` : '';
  const remedy = decoderPackage
    ? `To convert it, install ${decoderPackage.name} (npm install ${decoderPackage.name}), which adds ${decoderPackage.adds}: the glimpse CLI and MCP server load it when it is installed; in code, import it once (import '${decoderPackage.name}'). Or convert the file to JPEG first.`
    : 'Convert it to PNG or JPEG first.';
  return new MediaError(
    'E_UNSUPPORTED',
    `This is a ${label} image (${mediaType}). ${takersSentence(mediaType, label)}${why} ${remedy}`,
    {
      mediaType,
      acceptedBy: [...format.takenAsIsBy],
      ...(decoderPackage && { decoderPackage: decoderPackage.name }),
    },
  );
}
