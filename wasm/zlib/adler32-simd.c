// zlib's Adler-32 with its byte loop in WASM SIMD128: adler32 and adler32_z below take the place of zlib's
// (whose adler32.c is compiled here, its two under other names, for short inputs; adler32_combine as it is). Same checksum
// for every input (the arithmetic is exact, reduced modulo 65521 as zlib reduces it).
//
// For a run of n bytes x_0 … x_{n−1} after the sums s1, s2: s1 += Σ x_j and s2 += n·s1 + Σ (n − j)·x_j.
// Taken 32 bytes (a block) at a time, n − j = 32·(blocks after j's) + (32 − i) for byte i of its block, so
// each block adds its byte sum to s1's vector and the byte sums of the blocks before it once more (×32 at
// the end), and each byte to its position's u16 column sum, which the run's end weights by 32 − i (the
// weights once a run rather than per block: a quarter fewer operations per block than weighting each). The
// u32 lanes hold a run of up to RUN bytes without overflow (the prior-sum lanes reach 173²/2 · 8,160,
// about 1.2·10^8; a column 173 · 255); the run's totals are added in 64 bits and reduced.
#define adler32 zlib_adler32
#define adler32_z zlib_adler32_z
#include "adler32.c"
#undef adler32
#undef adler32_z
#include <wasm_simd128.h>

#define RUN (173 * 32)  // the largest multiple of 32 not above zlib's NMAX (5552)

static uint32_t lanes_sum(v128_t v) {
  return (uint32_t)wasm_i32x4_extract_lane(v, 0) + (uint32_t)wasm_i32x4_extract_lane(v, 1) +
      (uint32_t)wasm_i32x4_extract_lane(v, 2) + (uint32_t)wasm_i32x4_extract_lane(v, 3);
}

uLong ZEXPORT adler32_z(uLong adler, const Bytef *buf, z_size_t len) {
  if (buf == Z_NULL || len < 64) return zlib_adler32_z(adler, buf, len);
  uint64_t s1 = adler & 0xffff, s2 = (adler >> 16) & 0xffff;
  const v128_t weights_low = wasm_i16x8_make(32, 31, 30, 29, 28, 27, 26, 25);
  const v128_t weights_high = wasm_i16x8_make(24, 23, 22, 21, 20, 19, 18, 17);
  const v128_t weights_low2 = wasm_i16x8_make(16, 15, 14, 13, 12, 11, 10, 9);
  const v128_t weights_high2 = wasm_i16x8_make(8, 7, 6, 5, 4, 3, 2, 1);
  while (len >= 32) {
    size_t run = len < RUN ? len & ~(size_t)31 : RUN;
    v128_t sums = wasm_i32x4_splat(0), prior = sums;
    // Each byte position's sum over the run's blocks (u16: at most 173 · 255), weighted once at the end.
    v128_t column0 = sums, column1 = sums, column2 = sums, column3 = sums;
    for (size_t at = 0; at < run; at += 32, buf += 32) {
      v128_t a = wasm_v128_load(buf), b = wasm_v128_load(buf + 16);
      prior = wasm_i32x4_add(prior, sums);
      v128_t pairs = wasm_i16x8_add(wasm_u16x8_extadd_pairwise_u8x16(a), wasm_u16x8_extadd_pairwise_u8x16(b));
      sums = wasm_i32x4_add(sums, wasm_u32x4_extadd_pairwise_u16x8(pairs));
      column0 = wasm_i16x8_add(column0, wasm_u16x8_extend_low_u8x16(a));
      column1 = wasm_i16x8_add(column1, wasm_u16x8_extend_high_u8x16(a));
      column2 = wasm_i16x8_add(column2, wasm_u16x8_extend_low_u8x16(b));
      column3 = wasm_i16x8_add(column3, wasm_u16x8_extend_high_u8x16(b));
    }
    v128_t weighted = wasm_i32x4_add(
        wasm_i32x4_add(wasm_u32x4_extmul_low_u16x8(column0, weights_low), wasm_u32x4_extmul_high_u16x8(column0, weights_low)),
        wasm_i32x4_add(wasm_u32x4_extmul_low_u16x8(column1, weights_high), wasm_u32x4_extmul_high_u16x8(column1, weights_high)));
    weighted = wasm_i32x4_add(weighted, wasm_i32x4_add(
        wasm_i32x4_add(wasm_u32x4_extmul_low_u16x8(column2, weights_low2), wasm_u32x4_extmul_high_u16x8(column2, weights_low2)),
        wasm_i32x4_add(wasm_u32x4_extmul_low_u16x8(column3, weights_high2), wasm_u32x4_extmul_high_u16x8(column3, weights_high2))));
    s2 = (s2 + run * s1 + 32 * (uint64_t)lanes_sum(prior) + lanes_sum(weighted)) % BASE;
    s1 = (s1 + lanes_sum(sums)) % BASE;
    len -= run;
  }
  return zlib_adler32_z((uLong)(s1 | (s2 << 16)), buf, len);
}

uLong ZEXPORT adler32(uLong adler, const Bytef *buf, uInt len) { return adler32_z(adler, buf, len); }
