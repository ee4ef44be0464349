// Arithmetic, shifts, permutes and table lookups of wasm/neon/arm_neon.h (included from there, after the
// types and lanes).
#pragma once

// Bitwise and comparisons.
#define vand_u8(a, b) wasm_v128_and((a), (b))
#define vandq_u8(a, b) wasm_v128_and((a), (b))
#define vandq_u16(a, b) wasm_v128_and((a), (b))
#define vbsl_u8(mask, a, b) wasm_v128_bitselect((a), (b), (mask))
#define vcleq_u16(a, b) wasm_u16x8_le((a), (b))
#define veorq_s16(a, b) wasm_v128_xor((a), (b))
#define veorq_u16(a, b) wasm_v128_xor((a), (b))
#define vorr_s16(a, b) wasm_v128_or((a), (b))
#define vorrq_s16(a, b) wasm_v128_or((a), (b))
#define vceqq_u16(a, b) wasm_i16x8_eq((a), (b))
#define vcltzq_s16(a) wasm_i16x8_shr((a), 15)
#define vtstq_s16(a, b) wasm_i16x8_ne(wasm_v128_and((a), (b)), wasm_i16x8_splat(0))
#define vcnt_u8(a) wasm_i8x16_popcnt(a)
NEON_INLINE int16x8_t vclzq_s16(int16x8_t a) {
  // Smear the highest set bit down, then 16 − popcount.
  v128_t x = wasm_v128_or(a, wasm_u16x8_shr(a, 1));
  x = wasm_v128_or(x, wasm_u16x8_shr(x, 2));
  x = wasm_v128_or(x, wasm_u16x8_shr(x, 4));
  x = wasm_v128_or(x, wasm_u16x8_shr(x, 8));
  return wasm_i16x8_sub(wasm_i16x8_splat(16), wasm_u16x8_extadd_pairwise_u8x16(wasm_i8x16_popcnt(x)));
}

// Add and subtract (wrapping).
#define vadd_s16(a, b) wasm_i16x8_add((a), (b))
#define vaddq_s16(a, b) wasm_i16x8_add((a), (b))
#define vaddq_u16(a, b) wasm_i16x8_add((a), (b))
#define vadd_u8(a, b) wasm_i8x16_add((a), (b))
#define vaddq_u8(a, b) wasm_i8x16_add((a), (b))
#define vaddl_u8(a, b) wasm_i16x8_add(wasm_u16x8_extend_low_u8x16(a), wasm_u16x8_extend_low_u8x16(b))
// Halving add, truncating: (a + b) >> 1 without the carry out of 8 bits.
#define vhadd_u8(a, b) wasm_i8x16_add(wasm_v128_and((a), (b)), wasm_u8x16_shr(wasm_v128_xor((a), (b)), 1))
// Absolute differences.
#define vabdq_u16(a, b) wasm_i16x8_sub(wasm_u16x8_max((a), (b)), wasm_u16x8_min((a), (b)))
#define vabdl_u8(a, b) wasm_u16x8_extend_low_u8x16(wasm_i8x16_sub(wasm_u8x16_max((a), (b)), wasm_u8x16_min((a), (b))))
#define vaddq_s8(a, b) wasm_i8x16_add((a), (b))
#define vaddq_s32(a, b) wasm_i32x4_add((a), (b))
#define vsub_s16(a, b) wasm_i16x8_sub((a), (b))
#define vsubq_s16(a, b) wasm_i16x8_sub((a), (b))
#define vsubq_s32(a, b) wasm_i32x4_sub((a), (b))
#define vsubq_u8(a, b) wasm_i8x16_sub((a), (b))
#define vnegq_s16(a) wasm_i16x8_neg(a)
#define vabsq_s16(a) wasm_i16x8_abs(a)
#define vmovl_u8(a) wasm_u16x8_extend_low_u8x16(a)
#define vaddw_u8(a, b) wasm_i16x8_add((a), wasm_u16x8_extend_low_u8x16(b))
#define vsubl_u8(a, b) wasm_i16x8_sub(wasm_u16x8_extend_low_u8x16(a), wasm_u16x8_extend_low_u8x16(b))
#define vpadalq_u8(acc, a) wasm_i16x8_add((acc), wasm_u16x8_extadd_pairwise_u8x16(a))
NEON_INLINE uint8x16_t vpaddq_u8(uint8x16_t a, uint8x16_t b) {
  return wasm_i8x16_add(wasm_i8x16_shuffle(a, b, 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30),
      wasm_i8x16_shuffle(a, b, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31));
}
NEON_INLINE uint8x8_t vpadd_u8(uint8x8_t a, uint8x8_t b) {
  v128_t ab = wasm_i64x2_shuffle(a, b, 0, 2);
  return wasm_i8x16_add(wasm_i8x16_shuffle(ab, ab, 0, 2, 4, 6, 8, 10, 12, 14, 0, 0, 0, 0, 0, 0, 0, 0),
      wasm_i8x16_shuffle(ab, ab, 1, 3, 5, 7, 9, 11, 13, 15, 0, 0, 0, 0, 0, 0, 0, 0));
}
NEON_INLINE uint8_t vaddv_u8(uint8x8_t a) {
  v128_t sums = wasm_u32x4_extadd_pairwise_u16x8(wasm_u16x8_extadd_pairwise_u8x16(a));
  return (uint8_t)(wasm_i32x4_extract_lane(sums, 0) + wasm_i32x4_extract_lane(sums, 1));
}
// High halves of a 32-bit sum or difference, narrowed.
#define NEON_HIGH16(x) wasm_i8x16_shuffle((x), (x), 2, 3, 6, 7, 10, 11, 14, 15, 0, 0, 0, 0, 0, 0, 0, 0)
#define vaddhn_s32(a, b) NEON_HIGH16(wasm_i32x4_add((a), (b)))
#define vsubhn_s32(a, b) NEON_HIGH16(wasm_i32x4_sub((a), (b)))

// Multiplies. The long (widening) ones read the low half of their d operands.
#define vmul_s16(a, b) wasm_i16x8_mul((a), (b))
#define vmulq_s16(a, b) wasm_i16x8_mul((a), (b))
#define vmlaq_u16(acc, a, b) wasm_i16x8_add((acc), wasm_i16x8_mul((a), (b)))
#define vmull_u16(a, b) wasm_u32x4_extmul_low_u16x8((a), (b))
#define vmull_n_u16(a, n) wasm_u32x4_extmul_low_u16x8((a), wasm_i16x8_splat((int16_t)(n)))
#define vmlal_n_u16(acc, a, n) wasm_i32x4_add((acc), vmull_n_u16((a), (n)))
#define vmlal_u8(acc, a, b) wasm_i16x8_add((acc), wasm_u16x8_extmul_low_u8x16((a), (b)))
#define vmull_lane_s16(a, v, lane) wasm_i32x4_extmul_low_i16x8((a), NEON_SPLAT16((v), lane))
#define vmlal_lane_s16(acc, a, v, lane) wasm_i32x4_add((acc), vmull_lane_s16((a), (v), lane))
#define vmlsl_lane_s16(acc, a, v, lane) wasm_i32x4_sub((acc), vmull_lane_s16((a), (v), lane))
#define vmull_laneq_u16(a, v, lane) wasm_u32x4_extmul_low_u16x8((a), NEON_SPLAT16((v), lane))
#define vmlal_laneq_u16(acc, a, v, lane) wasm_i32x4_add((acc), vmull_laneq_u16((a), (v), lane))
#define vmlsl_laneq_u16(acc, a, v, lane) wasm_i32x4_sub((acc), vmull_laneq_u16((a), (v), lane))
// Saturating doubling multiply, high half: sat((2ab) >> 16), which is sat((ab) >> 15).
NEON_INLINE int16x8_t neon_qdmulhq_s16(int16x8_t a, int16x8_t b) {
  return wasm_i16x8_narrow_i32x4(wasm_i32x4_shr(wasm_i32x4_extmul_low_i16x8(a, b), 15),
      wasm_i32x4_shr(wasm_i32x4_extmul_high_i16x8(a, b), 15));
}
#define vqdmulhq_lane_s16(a, v, lane) neon_qdmulhq_s16((a), NEON_SPLAT16((v), lane))
#define vqdmulh_lane_s16(a, v, lane) neon_qdmulhq_s16((a), NEON_SPLAT16((v), lane))
// Its rounding form, sat((2ab + 2^15) >> 16), is WASM's Q15 multiply.
#define vqrdmulhq_lane_s16(a, v, lane) wasm_i16x8_q15mulr_sat((a), NEON_SPLAT16((v), lane))

// Shifts by immediates. A rounding shift adds bit n − 1 back instead of adding 2^(n−1) first, which
// cannot overflow: (x + 2^(n−1)) >> n = (x >> n) + ((x >> (n − 1)) & 1).
#define vshl_n_s16(a, n) wasm_i16x8_shl((a), (n))
#define vshlq_n_s16(a, n) wasm_i16x8_shl((a), (n))
#define vshl_n_u64(a, n) wasm_i64x2_shl((a), (n))
// WASM shifts by the count modulo the lane width; Neon's right shifts take the full width too (n = 16: every
// bit a copy of the sign, or 0), which is the same as 15 for a signed shift.
#define vshrq_n_s16(a, n) wasm_i16x8_shr((a), (n) == 16 ? 15 : (n))
#define vshll_n_s16(a, n) wasm_i32x4_shl(wasm_i32x4_extend_low_i16x8(a), (n))
#define NEON_RSHR_S16(a, n) \
  wasm_i16x8_add(wasm_i16x8_shr((a), (n) == 16 ? 15 : (n)), wasm_v128_and(wasm_i16x8_shr((a), (n) - 1), wasm_i16x8_splat(1)))
#define NEON_RSHR_U16(a, n) \
  wasm_i16x8_add(wasm_u16x8_shr((a), (n)), wasm_v128_and(wasm_u16x8_shr((a), (n) - 1), wasm_i16x8_splat(1)))
#define NEON_RSHR_S32(a, n) \
  wasm_i32x4_add(wasm_i32x4_shr((a), (n)), wasm_v128_and(wasm_i32x4_shr((a), (n) - 1), wasm_i32x4_splat(1)))
#define NEON_RSHR_U32(a, n) \
  wasm_i32x4_add(wasm_u32x4_shr((a), (n)), wasm_v128_and(wasm_u32x4_shr((a), (n) - 1), wasm_i32x4_splat(1)))
#define vrshrq_n_s16(a, n) NEON_RSHR_S16((a), (n))
#define vrsraq_n_s16(acc, a, n) wasm_i16x8_add((acc), NEON_RSHR_S16((a), (n)))
// Narrowing shifts keep the low half of each lane (no saturation)…
#define NEON_LOW8(x) wasm_i8x16_shuffle((x), (x), 0, 2, 4, 6, 8, 10, 12, 14, 0, 0, 0, 0, 0, 0, 0, 0)
#define NEON_LOW16(x) wasm_i8x16_shuffle((x), (x), 0, 1, 4, 5, 8, 9, 12, 13, 0, 0, 0, 0, 0, 0, 0, 0)
#define vmovn_u16(a) NEON_LOW8(a)
#define vshrn_n_u16(a, n) NEON_LOW8(wasm_u16x8_shr((a), (n)))
#define vshrn_n_s32(a, n) ((n) == 16 ? NEON_HIGH16(a) : NEON_LOW16(wasm_i32x4_shr((a), (n))))
#define vshrn_n_u32(a, n) NEON_LOW16(wasm_u32x4_shr((a), (n)))
#define vrshrn_n_u16(a, n) NEON_LOW8(NEON_RSHR_U16((a), (n)))
#define vrshrn_n_s32(a, n) NEON_LOW16(NEON_RSHR_S32((a), (n)))
#define vrshrn_n_u32(a, n) NEON_LOW16(NEON_RSHR_U32((a), (n)))
// …the saturating ones clamp to the narrow type's range.
#define vqmovun_s16(a) wasm_u8x16_narrow_i16x8((a), (a))
#define vqshrn_n_s16(a, n) wasm_i8x16_narrow_i16x8(wasm_i16x8_shr((a), (n)), wasm_i16x8_splat(0))
#define vqrshrn_n_s16(a, n) wasm_i8x16_narrow_i16x8(NEON_RSHR_S16((a), (n)), wasm_i16x8_splat(0))
// Saturating shift left, signed to unsigned: negative lanes become 0, overflow 65535.
#define vqshluq_n_s16(a, n) \
  wasm_u16x8_narrow_i32x4(wasm_i32x4_shl(wasm_i32x4_extend_low_i16x8(a), (n)), \
      wasm_i32x4_shl(wasm_i32x4_extend_high_i16x8(a), (n)))
// Shift right and insert: the top n bits of each lane of a stay (all of them for n = 16).
#define vsriq_n_u16(a, b, n) \
  ((n) == 16 ? (a) : wasm_v128_or(wasm_v128_and((a), wasm_i16x8_splat((int16_t)~(0xFFFF >> (n)))), wasm_u16x8_shr((b), (n))))

// Shift by a signed amount per lane (the low byte of each lane of b): left when positive, logical right
// when negative; 16 or more either way gives 0. libjpeg-turbo shifts right by 0–15 (quantisation), which
// is done as a multiply: x >> r is the high half of x · 2^(16 − r), with 2^(16 − r) looked up by swizzle
// (r of 16 or more finds 0, and so gives 0; r = 0 keeps x). A left shift, which no kernel here asks for,
// is done bit by bit of the amount, only when some lane needs it.
NEON_INLINE uint16x8_t vshlq_u16(uint16x8_t a, int16x8_t b) {
  v128_t amount = wasm_i16x8_shr(wasm_i16x8_shl(b, 8), 8);  // the low byte, signed
  v128_t right = wasm_i16x8_neg(amount);
  // Bytes of 2^(16 − r) for r = 0–15 (r = 0 left 0: handled below); a negative r indexes past the tables.
  v128_t low_bytes = wasm_i8x16_const(0, 0, 0, 0, 0, 0, 0, 0, 0, (int8_t)128, 64, 32, 16, 8, 4, 2);
  v128_t high_bytes = wasm_i8x16_const(0, (int8_t)128, 64, 32, 16, 8, 4, 2, 1, 0, 0, 0, 0, 0, 0, 0);
  v128_t scale = wasm_v128_or(wasm_i8x16_swizzle(low_bytes, wasm_v128_or(right, wasm_i16x8_splat((int16_t)0xFF00))),
      wasm_i8x16_swizzle(high_bytes, wasm_v128_or(wasm_i16x8_shl(right, 8), wasm_i16x8_splat(0x00FF))));
  v128_t x = wasm_i8x16_shuffle(wasm_u32x4_extmul_low_u16x8(a, scale), wasm_u32x4_extmul_high_u16x8(a, scale), 2, 3,
      6, 7, 10, 11, 14, 15, 18, 19, 22, 23, 26, 27, 30, 31);
  x = wasm_v128_bitselect(a, x, wasm_i16x8_eq(amount, wasm_i16x8_splat(0)));
  v128_t left = wasm_i16x8_gt(amount, wasm_i16x8_splat(0));
  if (wasm_v128_any_true(left)) {
    v128_t shifted = a;
    for (int bit = 1; bit <= 8; bit <<= 1) {
      v128_t chosen = wasm_i16x8_ne(wasm_v128_and(amount, wasm_i16x8_splat((int16_t)bit)), wasm_i16x8_splat(0));
      shifted = wasm_v128_bitselect(wasm_i16x8_shl(shifted, bit), shifted, chosen);
    }
    shifted = wasm_v128_andnot(shifted, wasm_i16x8_gt(amount, wasm_i16x8_splat(15)));
    x = wasm_v128_bitselect(shifted, x, left);
  }
  return x;
}

// Permutes.
#define vtrnq_s16(a, b) \
  ((int16x8x2_t){{wasm_i16x8_shuffle((a), (b), 0, 8, 2, 10, 4, 12, 6, 14), \
      wasm_i16x8_shuffle((a), (b), 1, 9, 3, 11, 5, 13, 7, 15)}})
#define vtrnq_u16(a, b) ((uint16x8x2_t){{vtrnq_s16((a), (b)).val[0], vtrnq_s16((a), (b)).val[1]}})
#define vtrnq_s32(a, b) \
  ((int32x4x2_t){{wasm_i32x4_shuffle((a), (b), 0, 4, 2, 6), wasm_i32x4_shuffle((a), (b), 1, 5, 3, 7)}})
#define vtrnq_u8(a, b) \
  ((uint8x16x2_t){{wasm_i8x16_shuffle((a), (b), 0, 16, 2, 18, 4, 20, 6, 22, 8, 24, 10, 26, 12, 28, 14, 30), \
      wasm_i8x16_shuffle((a), (b), 1, 17, 3, 19, 5, 21, 7, 23, 9, 25, 11, 27, 13, 29, 15, 31)}})
// Bytes n… of a, then the first n of b (d vectors).
#define NEON_EXT8(n, i) ((n) + (i) < 8 ? (n) + (i) : 8 + (n) + (i))
#define vext_u8(a, b, n) \
  wasm_i8x16_shuffle((a), (b), NEON_EXT8(n, 0), NEON_EXT8(n, 1), NEON_EXT8(n, 2), NEON_EXT8(n, 3), NEON_EXT8(n, 4), \
      NEON_EXT8(n, 5), NEON_EXT8(n, 6), NEON_EXT8(n, 7), 0, 0, 0, 0, 0, 0, 0, 0)
#define vuzp1q_u8(a, b) \
  wasm_i8x16_shuffle((a), (b), 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30)
#define vuzpq_s16(a, b) \
  ((int16x8x2_t){{wasm_i16x8_shuffle((a), (b), 0, 2, 4, 6, 8, 10, 12, 14), \
      wasm_i16x8_shuffle((a), (b), 1, 3, 5, 7, 9, 11, 13, 15)}})
NEON_INLINE uint8x8x2_t vzip_u8(uint8x8_t a, uint8x8_t b) {
  v128_t zipped = wasm_i8x16_shuffle(a, b, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
  return (uint8x8x2_t){{zipped, wasm_i64x2_shuffle(zipped, zipped, 1, 1)}};
}
#define vzipq_s32(a, b) \
  ((int32x4x2_t){{wasm_i32x4_shuffle((a), (b), 0, 4, 1, 5), wasm_i32x4_shuffle((a), (b), 2, 6, 3, 7)}})
#define vzipq_u32(a, b) ((uint32x4x2_t){{vzipq_s32((a), (b)).val[0], vzipq_s32((a), (b)).val[1]}})

// Table lookups: an index past the table gives 0, as WASM's swizzle does for one vector. For several,
// subtracting 16 per vector (wrapping) moves an index into the next one's range and every other out of it.
NEON_INLINE uint8x8_t vtbl2_u8(uint8x8x2_t table, uint8x8_t index) {
  return wasm_i8x16_swizzle(wasm_i64x2_shuffle(table.val[0], table.val[1], 0, 2), index);
}
#define vqtbl1q_u8(table, index) wasm_i8x16_swizzle((table), (index))
NEON_INLINE v128_t neon_tbl(const v128_t *table, int vectors, v128_t index) {
  v128_t out = wasm_i8x16_swizzle(table[0], index);
  for (int i = 1; i < vectors; i++) {
    index = wasm_i8x16_sub(index, wasm_i8x16_splat(16));
    out = wasm_v128_or(out, wasm_i8x16_swizzle(table[i], index));
  }
  return out;
}
#define vqtbl3q_s8(table, index) neon_tbl((table).val, 3, (index))
#define vqtbl4q_s8(table, index) neon_tbl((table).val, 4, (index))
