// ICC colour profiles carried into re-encoded outputs. glimpse converts no colours, so decoded pixels stay
// in the source's space (Display P3 for iPhone photos); without the profile a viewer takes them for sRGB
// and the colours wash out. The profile is read once, as the probe found it in the container, before the
// fit, which leaves room for it so the output keeps it within maxBytes.
import { isMediaError } from '../errors.js';
import type { OutputType, Probed } from '../formats/format.js';
import { describesRgb, wellFormedProfile } from '../formats/icc-profile.js';
import { formatOf, writerOf } from '../formats/registry.js';
import type { MediaType, ProbeResult } from '../types.js';

/**
 * A profile larger than this share of maxBytes is dropped instead of carried: it would cost the picture
 * more detail than its colours are worth. Display profiles are 0.5–4 KB (0.1 % of the presets' 3.75 MB at
 * most); only printer profiles of hundreds of KB against a tight maxBytes come near it.
 */
const MAX_PROFILE_SHARE = 0.1;

/** The profile a re-encoded output keeps, and the bytes to leave free for it in each output type. */
export interface CarriedProfile {
  profile: Uint8Array;
  reserve(type: OutputType): number;
}

/**
 * The source's profile, to carry into its re-encoded copy: one that is well formed, describes the RGB pixels
 * the encoders write (a CMYK or gray profile would mislabel them) and takes at most MAX_PROFILE_SHARE of
 * `maxBytes`; otherwise undefined.
 */
export async function profileToCarry(
  probed: Probed<ProbeResult>,
  maxBytes: number,
): Promise<CarriedProfile | undefined> {
  const found = await probed.iccProfile?.();
  const profile = found && wellFormedProfile(found);
  if (!profile || !describesRgb(profile) || profile.length > maxBytes * MAX_PROFILE_SHARE) return undefined;
  return { profile, reserve: (type) => writerOf(type).iccProfileBytes(profile) };
}

/** `encoded` with the carried profile embedded: within maxBytes, since the fit left room for it. */
export function withProfile<T extends { data: Uint8Array; mediaType: OutputType }>(
  encoded: T,
  carried: CarriedProfile | undefined,
): T {
  return carried ? { ...encoded, data: embedIccProfile(encoded.data, encoded.mediaType, carried.profile) } : encoded;
}

/**
 * The ICC profile embedded in `bytes` of `type`, or undefined when there is none or it is malformed (this
 * never throws): JPEG's APP2 segments joined in sequence order, PNG's inflated iCCP, WebP's ICCP when VP8X
 * announces it, TIFF's tag 34675 (first page), HEIC/HEIF/AVIF's primary image `colr` (`prof`, `rICC`).
 */
export async function readIccProfile(bytes: Uint8Array, type: MediaType): Promise<Uint8Array | undefined> {
  let probed: Probed<ProbeResult>;
  try {
    probed = await formatOf(type).probe(bytes);
  } catch (cause) {
    if (isMediaError(cause)) return undefined; // a container that does not read carries no profile to keep
    throw cause;
  }
  const profile = await probed.iccProfile?.();
  return profile && wellFormedProfile(profile);
}

/**
 * `encoded` with `profile` embedded; a profile it already carries is replaced (and a PNG's sRGB chunk
 * dropped, which must not stand beside iCCP). `encoded` must be well formed: it comes from an encoder.
 */
export function embedIccProfile(encoded: Uint8Array, type: OutputType, profile: Uint8Array): Uint8Array {
  return writerOf(type).embedIccProfile(encoded, profile);
}
