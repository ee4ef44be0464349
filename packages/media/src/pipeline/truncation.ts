import { MediaError } from '../errors.js';
import type { Orientation, ProcessWarning } from '../types.js';

/**
 * Below this share of real rows a cut-off JPEG is refused (`E_CORRUPT`) instead of sent: what is left is
 * mostly flat grey and tells the model little. At or above it, the image is sent with a W_TRUNCATED warning.
 */
export const MIN_RECOVERED_FRACTION = 0.25;

/** Where the stored image's bottom rows end up once EXIF orientation is applied. */
const STORED_BOTTOM_SHOWN_AT: Record<Orientation, 'bottom' | 'top' | 'left' | 'right'> = {
  1: 'bottom',
  2: 'bottom',
  3: 'top',
  4: 'top',
  5: 'right',
  6: 'left',
  7: 'left',
  8: 'right',
};

/**
 * The warning for a JPEG whose data ends early, in words the model can act on; undefined when only the
 * end marker was missing. Throws `E_CORRUPT` when less than MIN_RECOVERED_FRACTION of the rows are real.
 */
export function recoveredWarning(
  recovered: { realRows: number; height: number; eofScan: number },
  orientation: Orientation,
): ProcessWarning | undefined {
  const fraction = recovered.height > 0 ? recovered.realRows / recovered.height : 0;
  if (fraction >= 1) {
    if (recovered.eofScan <= 1) return undefined;
    return {
      code: 'W_TRUNCATED',
      message:
        'The image file ends early: every part of the picture arrived, but with less detail than the original (its later progressive scans are missing).',
      recoveredFraction: 1,
      missingSide: 'none',
    };
  }
  const percent = (share: number) => `${Math.round(share * 100)} %`;
  if (fraction < MIN_RECOVERED_FRACTION) {
    throw new MediaError(
      'E_CORRUPT',
      `The JPEG file is truncated: only ${percent(fraction)} of its rows are in the file (at least ${percent(MIN_RECOVERED_FRACTION)} are needed to send it). Re-download or re-export it.`,
      { format: 'JPEG', recoveredFraction: fraction },
    );
  }
  const side = STORED_BOTTOM_SHOWN_AT[orientation];
  return {
    code: 'W_TRUNCATED',
    message: `The image file ends early: the ${side} ${percent(1 - fraction)} of the picture is missing and shows as flat grey; only the rest is real.`,
    recoveredFraction: fraction,
    missingSide: side,
  };
}
