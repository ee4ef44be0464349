// WASM SIMD versions of the VP8 encoder's hottest dsp functions (libwebp's x86/ARM SIMD does not build for
// wasm32, and its plain C versions took half of the encoder's time: forward and inverse transform,
// quantization, sums of squared differences). Each computes exactly what libwebp's C version in
// src/dsp/enc.c does — the same integer operations, with the same 32-bit wrap-around — four values at a
// time, so the encoded bytes do not change. encode.c installs them after libwebp's own dsp set-up.

#include <stdint.h>
#include <wasm_simd128.h>
#include "src/dsp/dsp.h"
#include "src/enc/vp8i_enc.h"

// Row i of the result holds element i of each of a, b, c, d.
static void transpose(v128_t *a, v128_t *b, v128_t *c, v128_t *d) {
  const v128_t ab_low = wasm_i32x4_shuffle(*a, *b, 0, 4, 1, 5), ab_high = wasm_i32x4_shuffle(*a, *b, 2, 6, 3, 7);
  const v128_t cd_low = wasm_i32x4_shuffle(*c, *d, 0, 4, 1, 5), cd_high = wasm_i32x4_shuffle(*c, *d, 2, 6, 3, 7);
  *a = wasm_i32x4_shuffle(ab_low, cd_low, 0, 1, 4, 5);
  *b = wasm_i32x4_shuffle(ab_low, cd_low, 2, 3, 6, 7);
  *c = wasm_i32x4_shuffle(ab_high, cd_high, 0, 1, 4, 5);
  *d = wasm_i32x4_shuffle(ab_high, cd_high, 2, 3, 6, 7);
}

// The low 16 bits of each 32-bit lane of a, then of b (C's conversion of an int to int16_t).
static v128_t low_halves(v128_t a, v128_t b) {
  return wasm_i8x16_shuffle(a, b, 0, 1, 4, 5, 8, 9, 12, 13, 16, 17, 20, 21, 24, 25, 28, 29);
}

// Four bytes at p (a row of a 4×4 block) as 32-bit lanes.
static v128_t load4(const uint8_t *p) {
  return wasm_u32x4_extend_low_u16x8(wasm_u16x8_extend_low_u8x16(wasm_v128_load32_zero(p)));
}

static v128_t constant(int32_t c) { return wasm_i32x4_splat(c); }

// FTransform_C: lanes are rows in the first pass, columns in the second.
static void FTransform(const uint8_t *src, const uint8_t *ref, int16_t *out) {
  v128_t d0 = wasm_i32x4_sub(load4(src + 0 * BPS), load4(ref + 0 * BPS));
  v128_t d1 = wasm_i32x4_sub(load4(src + 1 * BPS), load4(ref + 1 * BPS));
  v128_t d2 = wasm_i32x4_sub(load4(src + 2 * BPS), load4(ref + 2 * BPS));
  v128_t d3 = wasm_i32x4_sub(load4(src + 3 * BPS), load4(ref + 3 * BPS));
  transpose(&d0, &d1, &d2, &d3);  // d_k: the k-th pixel of each row
  const v128_t a0 = wasm_i32x4_add(d0, d3), a1 = wasm_i32x4_add(d1, d2);
  const v128_t a2 = wasm_i32x4_sub(d1, d2), a3 = wasm_i32x4_sub(d0, d3);
  v128_t t0 = wasm_i32x4_shl(wasm_i32x4_add(a0, a1), 3);
  v128_t t1 = wasm_i32x4_shr(
      wasm_i32x4_add(wasm_i32x4_add(wasm_i32x4_mul(a2, constant(2217)), wasm_i32x4_mul(a3, constant(5352))),
                     constant(1812)),
      9);
  v128_t t2 = wasm_i32x4_shl(wasm_i32x4_sub(a0, a1), 3);
  v128_t t3 = wasm_i32x4_shr(
      wasm_i32x4_add(wasm_i32x4_sub(wasm_i32x4_mul(a3, constant(2217)), wasm_i32x4_mul(a2, constant(5352))),
                     constant(937)),
      9);
  transpose(&t0, &t1, &t2, &t3);  // t_r: row r of tmp[]
  const v128_t b0 = wasm_i32x4_add(t0, t3), b1 = wasm_i32x4_add(t1, t2);
  const v128_t b2 = wasm_i32x4_sub(t1, t2), b3 = wasm_i32x4_sub(t0, t3);
  const v128_t o0 = wasm_i32x4_shr(wasm_i32x4_add(wasm_i32x4_add(b0, b1), constant(7)), 4);
  const v128_t o1 = wasm_i32x4_sub(
      wasm_i32x4_shr(
          wasm_i32x4_add(wasm_i32x4_add(wasm_i32x4_mul(b2, constant(2217)), wasm_i32x4_mul(b3, constant(5352))),
                         constant(12000)),
          16),
      wasm_i32x4_ne(b3, constant(0)));  // + (a3 != 0): a true comparison is -1
  const v128_t o2 = wasm_i32x4_shr(wasm_i32x4_add(wasm_i32x4_sub(b0, b1), constant(7)), 4);
  const v128_t o3 = wasm_i32x4_shr(
      wasm_i32x4_add(wasm_i32x4_sub(wasm_i32x4_mul(b3, constant(2217)), wasm_i32x4_mul(b2, constant(5352))),
                     constant(51000)),
      16);
  wasm_v128_store(out, low_halves(o0, o1));
  wasm_v128_store(out + 8, low_halves(o2, o3));
}

static void FTransform2(const uint8_t *src, const uint8_t *ref, int16_t *out) {
  FTransform(src, ref, out);
  FTransform(src + 4, ref + 4, out + 16);
}

#define C1 (20091 + (1 << 16))
#define C2 35468
static v128_t mul_shift16(v128_t a, int32_t c) { return wasm_i32x4_shr(wasm_i32x4_mul(a, constant(c)), 16); }

// ITransformOne: the vertical pass with lanes as columns, the horizontal one with lanes as rows.
static void ITransformOne(const uint8_t *ref, const int16_t *in, uint8_t *dst) {
  const v128_t in01 = wasm_v128_load(in), in23 = wasm_v128_load(in + 8);
  const v128_t i0 = wasm_i32x4_extend_low_i16x8(in01), i1 = wasm_i32x4_extend_high_i16x8(in01);
  const v128_t i2 = wasm_i32x4_extend_low_i16x8(in23), i3 = wasm_i32x4_extend_high_i16x8(in23);
  const v128_t a = wasm_i32x4_add(i0, i2), b = wasm_i32x4_sub(i0, i2);
  const v128_t c = wasm_i32x4_sub(mul_shift16(i1, C2), mul_shift16(i3, C1));
  const v128_t d = wasm_i32x4_add(mul_shift16(i1, C1), mul_shift16(i3, C2));
  v128_t v0 = wasm_i32x4_add(a, d), v1 = wasm_i32x4_add(b, c), v2 = wasm_i32x4_sub(b, c), v3 = wasm_i32x4_sub(a, d);
  transpose(&v0, &v1, &v2, &v3);
  const v128_t dc = wasm_i32x4_add(v0, constant(4));
  const v128_t ha = wasm_i32x4_add(dc, v2), hb = wasm_i32x4_sub(dc, v2);
  const v128_t hc = wasm_i32x4_sub(mul_shift16(v1, C2), mul_shift16(v3, C1));
  const v128_t hd = wasm_i32x4_add(mul_shift16(v1, C1), mul_shift16(v3, C2));
  v128_t x0 = wasm_i32x4_shr(wasm_i32x4_add(ha, hd), 3), x1 = wasm_i32x4_shr(wasm_i32x4_add(hb, hc), 3);
  v128_t x2 = wasm_i32x4_shr(wasm_i32x4_sub(hb, hc), 3), x3 = wasm_i32x4_shr(wasm_i32x4_sub(ha, hd), 3);
  transpose(&x0, &x1, &x2, &x3);  // x_y: row y of the residual
  const v128_t rows[4] = {x0, x1, x2, x3};
  for (int y = 0; y < 4; y++) {
    const v128_t sum = wasm_i32x4_add(rows[y], load4(ref + y * BPS));
    const v128_t narrow = wasm_i16x8_narrow_i32x4(sum, sum);  // clip_8b: saturate to 0..255
    wasm_v128_store32_lane(dst + y * BPS, wasm_u8x16_narrow_i16x8(narrow, narrow), 0);
  }
}

static void ITransform(const uint8_t *ref, const int16_t *in, uint8_t *dst, int do_two) {
  ITransformOne(ref, in, dst);
  if (do_two) ITransformOne(ref + 4, in + 16, dst + 4);
}

// QuantizeBlock_C in coefficient order, then reordered to zigzag order.
static int QuantizeBlock(int16_t in[16], int16_t out[16], const VP8Matrix *const mtx) {
  v128_t level[4], dequantized[4];
  for (int k = 0; k < 4; k++) {
    const v128_t coefficient = wasm_i32x4_extend_low_i16x8(wasm_v128_load64_zero(in + 4 * k));
    const v128_t negative = wasm_i32x4_lt(coefficient, constant(0));
    const v128_t sharpen = wasm_u32x4_extend_low_u16x8(wasm_v128_load64_zero(mtx->sharpen_ + 4 * k));
    const v128_t magnitude = wasm_i32x4_add(wasm_i32x4_abs(coefficient), sharpen);
    const v128_t iq = wasm_u32x4_extend_low_u16x8(wasm_v128_load64_zero(mtx->iq_ + 4 * k));
    const v128_t q = wasm_u32x4_extend_low_u16x8(wasm_v128_load64_zero(mtx->q_ + 4 * k));
    const v128_t bias = wasm_v128_load(mtx->bias_ + 4 * k);
    const v128_t kept = wasm_u32x4_gt(magnitude, wasm_v128_load(mtx->zthresh_ + 4 * k));
    v128_t l = wasm_u32x4_shr(wasm_i32x4_add(wasm_i32x4_mul(magnitude, iq), bias), QFIX);
    l = wasm_v128_and(wasm_i32x4_min(l, constant(MAX_LEVEL)), kept);
    l = wasm_i32x4_sub(wasm_v128_xor(l, negative), negative);  // -level where the coefficient is negative
    level[k] = l;
    dequantized[k] = wasm_i32x4_mul(l, q);
  }
  wasm_v128_store(in, low_halves(dequantized[0], dequantized[1]));
  wasm_v128_store(in + 8, low_halves(dequantized[2], dequantized[3]));
  const v128_t low = low_halves(level[0], level[1]), high = low_halves(level[2], level[3]);
  // Zigzag: 0 1 4 8 5 2 3 6 | 9 12 13 10 7 11 14 15 (16-bit lanes; 8 and up are in `high`).
  wasm_v128_store(out, wasm_i8x16_shuffle(low, high, 0, 1, 2, 3, 8, 9, 16, 17, 10, 11, 4, 5, 6, 7, 12, 13));
  wasm_v128_store(out + 8,
                  wasm_i8x16_shuffle(low, high, 18, 19, 24, 25, 26, 27, 20, 21, 14, 15, 22, 23, 28, 29, 30, 31));
  return wasm_v128_any_true(wasm_v128_or(low, high));
}

static int Quantize2Blocks(int16_t in[32], int16_t out[32], const VP8Matrix *const mtx) {
  return QuantizeBlock(in, out, mtx) | QuantizeBlock(in + 16, out + 16, mtx) << 1;
}

// GetSSE for 16 or 8 pixels per row: the sum of squared differences.
static int SSE(const uint8_t *a, const uint8_t *b, int wide, int rows) {
  v128_t sum = wasm_i32x4_splat(0);
  for (int y = 0; y < rows; y++, a += BPS, b += BPS) {
    const v128_t pa = wide ? wasm_v128_load(a) : wasm_v128_load64_zero(a);
    const v128_t pb = wide ? wasm_v128_load(b) : wasm_v128_load64_zero(b);
    const v128_t low = wasm_i16x8_sub(wasm_u16x8_extend_low_u8x16(pa), wasm_u16x8_extend_low_u8x16(pb));
    const v128_t high = wasm_i16x8_sub(wasm_u16x8_extend_high_u8x16(pa), wasm_u16x8_extend_high_u8x16(pb));
    sum = wasm_i32x4_add(sum, wasm_i32x4_dot_i16x8(low, low));
    sum = wasm_i32x4_add(sum, wasm_i32x4_dot_i16x8(high, high));
  }
  return wasm_i32x4_extract_lane(sum, 0) + wasm_i32x4_extract_lane(sum, 1) + wasm_i32x4_extract_lane(sum, 2) +
         wasm_i32x4_extract_lane(sum, 3);
}

static int SSE16x16(const uint8_t *a, const uint8_t *b) { return SSE(a, b, 1, 16); }
static int SSE16x8(const uint8_t *a, const uint8_t *b) { return SSE(a, b, 1, 8); }
static int SSE8x8(const uint8_t *a, const uint8_t *b) { return SSE(a, b, 0, 8); }

void EncoderDspInitSimd(void) {
  VP8EncDspInit();  // libwebp's C versions first: later calls keep what is set here
  VP8FTransform = FTransform;
  VP8FTransform2 = FTransform2;
  VP8ITransform = ITransform;
  VP8EncQuantizeBlock = QuantizeBlock;
  VP8EncQuantize2Blocks = Quantize2Blocks;
  VP8SSE16x16 = SSE16x16;
  VP8SSE16x8 = SSE16x8;
  VP8SSE8x8 = SSE8x8;
}
