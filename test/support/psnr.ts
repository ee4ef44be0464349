/** Peak signal-to-noise ratio in dB of two 8-bit buffers of the same layout; Infinity when identical. */
export function psnr(a: Uint8Array, b: Uint8Array): number {
  if (a.length !== b.length) throw new Error(`size mismatch ${a.length} vs ${b.length}`);
  let squared = 0;
  for (let i = 0; i < a.length; i++) squared += (a[i]! - b[i]!) ** 2;
  return squared === 0 ? Infinity : 10 * Math.log10((255 * 255 * a.length) / squared);
}
