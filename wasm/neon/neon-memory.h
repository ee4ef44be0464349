// Loads and stores of wasm/neon/arm_neon.h (included from there, after the types).
#pragma once

// Loads. A d load reads 8 bytes into the low half.
#define vld1_s16(p) wasm_v128_load64_zero(p)
#define vld1_u8(p) wasm_v128_load64_zero(p)
#define vld1q_s16(p) wasm_v128_load(p)
#define vld1q_u16(p) wasm_v128_load(p)
#define vld1q_s8(p) wasm_v128_load(p)
#define vld1q_u8(p) wasm_v128_load(p)
#define vld1q_dup_s16(p) wasm_v128_load16_splat(p)
#define vld1q_lane_s16(p, a, lane) wasm_v128_load16_lane((p), (a), (lane))
#define vld1q_dup_u32(p) wasm_v128_load32_splat(p)
#define vld1q_lane_u32(p, a, lane) wasm_v128_load32_lane((p), (a), (lane))
NEON_INLINE uint8x8x3_t vld3_dup_u8(const uint8_t *p) {
  return (uint8x8x3_t){{wasm_v128_load8_splat(p), wasm_v128_load8_splat(p + 1), wasm_v128_load8_splat(p + 2)}};
}
#define vld3_lane_u8(p, v, lane) \
  ((uint8x8x3_t){{wasm_v128_load8_lane((const uint8_t *)(p), (v).val[0], (lane)), \
      wasm_v128_load8_lane((const uint8_t *)(p) + 1, (v).val[1], (lane)), \
      wasm_v128_load8_lane((const uint8_t *)(p) + 2, (v).val[2], (lane))}})
NEON_INLINE int16x4x3_t vld1_s16_x3(const int16_t *p) {
  return (int16x4x3_t){{wasm_v128_load64_zero(p), wasm_v128_load64_zero(p + 4), wasm_v128_load64_zero(p + 8)}};
}
NEON_INLINE uint8x16x4_t vld1q_u8_x4(const uint8_t *p) {
  return (uint8x16x4_t){{wasm_v128_load(p), wasm_v128_load(p + 16), wasm_v128_load(p + 32), wasm_v128_load(p + 48)}};
}
NEON_INLINE int8x16x4_t vld1q_s8_x4(const int8_t *p) {
  return (int8x16x4_t){{wasm_v128_load(p), wasm_v128_load(p + 16), wasm_v128_load(p + 32), wasm_v128_load(p + 48)}};
}

// De-interleaving loads: lane i of val[k] is element n·i + k.
NEON_INLINE uint8x8x2_t vld2_u8(const uint8_t *p) {
  v128_t a = wasm_v128_load(p);
  v128_t even = wasm_i8x16_shuffle(a, a, 0, 2, 4, 6, 8, 10, 12, 14, 1, 3, 5, 7, 9, 11, 13, 15);
  return (uint8x8x2_t){{even, wasm_i64x2_shuffle(even, even, 1, 1)}};
}
NEON_INLINE uint8x8x3_t vld3_u8(const uint8_t *p) {
  v128_t a = wasm_v128_load(p), b = wasm_v128_load64_zero(p + 16);
  return (uint8x8x3_t){{wasm_i8x16_shuffle(a, b, 0, 3, 6, 9, 12, 15, 18, 21, 0, 0, 0, 0, 0, 0, 0, 0),
      wasm_i8x16_shuffle(a, b, 1, 4, 7, 10, 13, 16, 19, 22, 0, 0, 0, 0, 0, 0, 0, 0),
      wasm_i8x16_shuffle(a, b, 2, 5, 8, 11, 14, 17, 20, 23, 0, 0, 0, 0, 0, 0, 0, 0)}};
}
NEON_INLINE uint8x16x3_t vld3q_u8(const uint8_t *p) {
  v128_t a = wasm_v128_load(p), b = wasm_v128_load(p + 16), c = wasm_v128_load(p + 32);
  // Elements 3i + k below 32 come from a and b, the rest from c (index 16 + (3i + k − 32) in the second shuffle).
  v128_t ab0 = wasm_i8x16_shuffle(a, b, 0, 3, 6, 9, 12, 15, 18, 21, 24, 27, 30, 0, 0, 0, 0, 0);
  v128_t ab1 = wasm_i8x16_shuffle(a, b, 1, 4, 7, 10, 13, 16, 19, 22, 25, 28, 31, 0, 0, 0, 0, 0);
  v128_t ab2 = wasm_i8x16_shuffle(a, b, 2, 5, 8, 11, 14, 17, 20, 23, 26, 29, 0, 0, 0, 0, 0, 0);
  return (uint8x16x3_t){{wasm_i8x16_shuffle(ab0, c, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 17, 20, 23, 26, 29),
      wasm_i8x16_shuffle(ab1, c, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 18, 21, 24, 27, 30),
      wasm_i8x16_shuffle(ab2, c, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 16, 19, 22, 25, 28, 31)}};
}
NEON_INLINE uint8x8x4_t vld4_u8(const uint8_t *p) {
  v128_t a = wasm_v128_load(p), b = wasm_v128_load(p + 16);
  v128_t k01 = wasm_i8x16_shuffle(a, b, 0, 4, 8, 12, 16, 20, 24, 28, 1, 5, 9, 13, 17, 21, 25, 29);
  v128_t k23 = wasm_i8x16_shuffle(a, b, 2, 6, 10, 14, 18, 22, 26, 30, 3, 7, 11, 15, 19, 23, 27, 31);
  return (uint8x8x4_t){{k01, wasm_i64x2_shuffle(k01, k01, 1, 1), k23, wasm_i64x2_shuffle(k23, k23, 1, 1)}};
}
NEON_INLINE uint8x16x4_t vld4q_u8(const uint8_t *p) {
  v128_t a = wasm_v128_load(p), b = wasm_v128_load(p + 16), c = wasm_v128_load(p + 32), d = wasm_v128_load(p + 48);
  v128_t ab01 = wasm_i8x16_shuffle(a, b, 0, 4, 8, 12, 16, 20, 24, 28, 1, 5, 9, 13, 17, 21, 25, 29);
  v128_t ab23 = wasm_i8x16_shuffle(a, b, 2, 6, 10, 14, 18, 22, 26, 30, 3, 7, 11, 15, 19, 23, 27, 31);
  v128_t cd01 = wasm_i8x16_shuffle(c, d, 0, 4, 8, 12, 16, 20, 24, 28, 1, 5, 9, 13, 17, 21, 25, 29);
  v128_t cd23 = wasm_i8x16_shuffle(c, d, 2, 6, 10, 14, 18, 22, 26, 30, 3, 7, 11, 15, 19, 23, 27, 31);
  return (uint8x16x4_t){{wasm_i64x2_shuffle(ab01, cd01, 0, 2), wasm_i64x2_shuffle(ab01, cd01, 1, 3),
      wasm_i64x2_shuffle(ab23, cd23, 0, 2), wasm_i64x2_shuffle(ab23, cd23, 1, 3)}};
}
NEON_INLINE int16x8x4_t vld4q_s16(const int16_t *p) {
  v128_t a = wasm_v128_load(p), b = wasm_v128_load(p + 8), c = wasm_v128_load(p + 16), d = wasm_v128_load(p + 24);
  v128_t ab01 = wasm_i16x8_shuffle(a, b, 0, 4, 8, 12, 1, 5, 9, 13);
  v128_t ab23 = wasm_i16x8_shuffle(a, b, 2, 6, 10, 14, 3, 7, 11, 15);
  v128_t cd01 = wasm_i16x8_shuffle(c, d, 0, 4, 8, 12, 1, 5, 9, 13);
  v128_t cd23 = wasm_i16x8_shuffle(c, d, 2, 6, 10, 14, 3, 7, 11, 15);
  return (int16x8x4_t){{wasm_i64x2_shuffle(ab01, cd01, 0, 2), wasm_i64x2_shuffle(ab01, cd01, 1, 3),
      wasm_i64x2_shuffle(ab23, cd23, 0, 2), wasm_i64x2_shuffle(ab23, cd23, 1, 3)}};
}

NEON_INLINE uint32x2x4_t vld4_u32(const uint32_t *p) {
  v128_t a = wasm_v128_load(p), b = wasm_v128_load(p + 4);
  return (uint32x2x4_t){{wasm_i32x4_shuffle(a, b, 0, 4, 0, 0), wasm_i32x4_shuffle(a, b, 1, 5, 0, 0),
      wasm_i32x4_shuffle(a, b, 2, 6, 0, 0), wasm_i32x4_shuffle(a, b, 3, 7, 0, 0)}};
}

// Stores. A d store writes the low 8 bytes.
#define vst1_u8(p, a) wasm_v128_store64_lane((p), (a), 0)
#define vst1q_s16(p, a) wasm_v128_store((p), (a))
#define vst1q_u16(p, a) wasm_v128_store((p), (a))
#define vst1q_u8(p, a) wasm_v128_store((p), (a))
#define vst1q_u32(p, a) wasm_v128_store((p), (a))
#define vst1_lane_u8(p, a, lane) wasm_v128_store8_lane((p), (a), (lane))
#define vst1q_lane_u16(p, a, lane) wasm_v128_store16_lane((p), (a), (lane))
#define vst1q_lane_u64(p, a, lane) wasm_v128_store64_lane((p), (a), (lane))
#define vst1_lane_u32(p, a, lane) wasm_v128_store32_lane((p), (a), (lane))
// Interleaving stores of one lane of each vector: element k at p[k] (p converted to the element type, as
// the intrinsics' prototypes would: libpng passes void pointers).
#define vst2_lane_u16(p, v, lane) \
  (wasm_v128_store16_lane((uint16_t *)(p), (v).val[0], (lane)), \
      wasm_v128_store16_lane((uint16_t *)(p) + 1, (v).val[1], (lane)))
#define vst3_lane_u8(p, v, lane) \
  (wasm_v128_store8_lane((uint8_t *)(p), (v).val[0], (lane)), \
      wasm_v128_store8_lane((uint8_t *)(p) + 1, (v).val[1], (lane)), \
      wasm_v128_store8_lane((uint8_t *)(p) + 2, (v).val[2], (lane)))
#define vst4_lane_u8(p, v, lane) \
  (wasm_v128_store8_lane((uint8_t *)(p), (v).val[0], (lane)), \
      wasm_v128_store8_lane((uint8_t *)(p) + 1, (v).val[1], (lane)), \
      wasm_v128_store8_lane((uint8_t *)(p) + 2, (v).val[2], (lane)), \
      wasm_v128_store8_lane((uint8_t *)(p) + 3, (v).val[3], (lane)))
#define vst4_lane_u16(p, v, lane) \
  (wasm_v128_store16_lane((uint16_t *)(p), (v).val[0], (lane)), \
      wasm_v128_store16_lane((uint16_t *)(p) + 1, (v).val[1], (lane)), \
      wasm_v128_store16_lane((uint16_t *)(p) + 2, (v).val[2], (lane)), \
      wasm_v128_store16_lane((uint16_t *)(p) + 3, (v).val[3], (lane)))
#define vst4_lane_u32(p, v, lane) \
  (wasm_v128_store32_lane((uint32_t *)(p), (v).val[0], (lane)), \
      wasm_v128_store32_lane((uint32_t *)(p) + 1, (v).val[1], (lane)), \
      wasm_v128_store32_lane((uint32_t *)(p) + 2, (v).val[2], (lane)), \
      wasm_v128_store32_lane((uint32_t *)(p) + 3, (v).val[3], (lane)))
// Interleaving stores: element n·i + k is lane i of val[k].
NEON_INLINE void vst2q_u8(uint8_t *p, uint8x16x2_t v) {
  wasm_v128_store(p, wasm_i8x16_shuffle(v.val[0], v.val[1], 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23));
  wasm_v128_store(p + 16,
      wasm_i8x16_shuffle(v.val[0], v.val[1], 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31));
}
NEON_INLINE void vst3_u8(uint8_t *p, uint8x8x3_t v) {
  v128_t ab = wasm_i64x2_shuffle(v.val[0], v.val[1], 0, 2);  // a in bytes 0–7, b in 8–15
  wasm_v128_store(p, wasm_i8x16_shuffle(ab, v.val[2], 0, 8, 16, 1, 9, 17, 2, 10, 18, 3, 11, 19, 4, 12, 20, 5));
  wasm_v128_store64_lane(
      p + 16, wasm_i8x16_shuffle(ab, v.val[2], 13, 21, 6, 14, 22, 7, 15, 23, 0, 0, 0, 0, 0, 0, 0, 0), 0);
}
NEON_INLINE void vst3q_u8(uint8_t *p, uint8x16x3_t v) {
  v128_t a = v.val[0], b = v.val[1], c = v.val[2];
  // Each 16 output bytes take from all three vectors: a and b first, then c's bytes put in place.
  v128_t ab0 = wasm_i8x16_shuffle(a, b, 0, 16, 0, 1, 17, 0, 2, 18, 0, 3, 19, 0, 4, 20, 0, 5);
  v128_t ab1 = wasm_i8x16_shuffle(a, b, 21, 0, 6, 22, 0, 7, 23, 0, 8, 24, 0, 9, 25, 0, 10, 26);
  v128_t ab2 = wasm_i8x16_shuffle(a, b, 0, 11, 27, 0, 12, 28, 0, 13, 29, 0, 14, 30, 0, 15, 31, 0);
  wasm_v128_store(p, wasm_i8x16_shuffle(ab0, c, 0, 1, 16, 3, 4, 17, 6, 7, 18, 9, 10, 19, 12, 13, 20, 15));
  wasm_v128_store(p + 16, wasm_i8x16_shuffle(ab1, c, 0, 21, 2, 3, 22, 5, 6, 23, 8, 9, 24, 11, 12, 25, 14, 15));
  wasm_v128_store(p + 32, wasm_i8x16_shuffle(ab2, c, 26, 1, 2, 27, 4, 5, 28, 7, 8, 29, 10, 11, 30, 13, 14, 31));
}
NEON_INLINE void vst4_u8(uint8_t *p, uint8x8x4_t v) {
  v128_t ab = wasm_i8x16_shuffle(v.val[0], v.val[1], 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
  v128_t cd = wasm_i8x16_shuffle(v.val[2], v.val[3], 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
  wasm_v128_store(p, wasm_i16x8_shuffle(ab, cd, 0, 8, 1, 9, 2, 10, 3, 11));
  wasm_v128_store(p + 16, wasm_i16x8_shuffle(ab, cd, 4, 12, 5, 13, 6, 14, 7, 15));
}
NEON_INLINE void vst4q_u8(uint8_t *p, uint8x16x4_t v) {
  v128_t a = v.val[0], b = v.val[1], c = v.val[2], d = v.val[3];
  v128_t ab_lo = wasm_i8x16_shuffle(a, b, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
  v128_t ab_hi = wasm_i8x16_shuffle(a, b, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
  v128_t cd_lo = wasm_i8x16_shuffle(c, d, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
  v128_t cd_hi = wasm_i8x16_shuffle(c, d, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
  wasm_v128_store(p, wasm_i16x8_shuffle(ab_lo, cd_lo, 0, 8, 1, 9, 2, 10, 3, 11));
  wasm_v128_store(p + 16, wasm_i16x8_shuffle(ab_lo, cd_lo, 4, 12, 5, 13, 6, 14, 7, 15));
  wasm_v128_store(p + 32, wasm_i16x8_shuffle(ab_hi, cd_hi, 0, 8, 1, 9, 2, 10, 3, 11));
  wasm_v128_store(p + 48, wasm_i16x8_shuffle(ab_hi, cd_hi, 4, 12, 5, 13, 6, 14, 7, 15));
}
NEON_INLINE void vst4_s16(int16_t *p, int16x4x4_t v) {
  v128_t ab = wasm_i16x8_shuffle(v.val[0], v.val[1], 0, 8, 1, 9, 2, 10, 3, 11);
  v128_t cd = wasm_i16x8_shuffle(v.val[2], v.val[3], 0, 8, 1, 9, 2, 10, 3, 11);
  wasm_v128_store(p, wasm_i32x4_shuffle(ab, cd, 0, 4, 1, 5));
  wasm_v128_store(p + 8, wasm_i32x4_shuffle(ab, cd, 2, 6, 3, 7));
}
