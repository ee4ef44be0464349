// <arm_neon.h> for wasm32: the Arm Neon intrinsics that libjpeg-turbo's kernels (simd/arm/*-neon.c) and
// libpng's (arm/filter_neon_intrinsics.c, arm/palette_neon_intrinsics.c) use, each written on WASM SIMD128 with Neon's exact
// semantics (wrapping, saturation, rounding, lane order).
//
// Why not SIMDe's <simde/arm/neon.h> (Debian's libsimde-dev 0.7.4), as wasm/heif does for x86 SSE: its
// 64-bit Neon vectors are 8-byte vector types, which clang 14's wasm backend legalises by promoting each
// lane (an int16x4_t held as an i32x4, sign-extended by a shift pair at every use), and several of the
// intrinsics these kernels need (vtrnq_*, vld4/vst4, vshll_n_s16, vld1_*_x3/x4, vshlq_u16, vclzq_s16,
// vqrdmulhq_lane_s16) are scalar loops there. Measured on the bench's 12 MP JPEG → 2000 px JPEG job, the
// kernels built through SIMDe ran the job in 3.6× the time of libjpeg-turbo's plain C.
//
// Here every Neon vector type is a v128_t: a 128-bit ("q") vector uses all of it, a 64-bit ("d") vector its
// low 8 bytes, with the high 8 bytes left undefined (no intrinsic below reads them from a d operand).
// All the types being one type is harmless in C: Neon intrinsics are named per element type. What this
// cannot give is Neon's memory layout of d vectors: a pair of them (uint8x8x2_t) is 32 bytes here, not 16,
// so code that reads a q vector's bytes as a pair of d vectors through a pointer must take its halves
// instead (wasm/png/neon-halves.patch does so for libpng). Loads and stores are in neon-memory.h, the rest
// in neon-compute.h.
#pragma once
#include <stdint.h>
#include <wasm_simd128.h>

typedef v128_t int8x8_t, int8x16_t, uint8x8_t, uint8x16_t, int16x4_t, int16x8_t, uint16x4_t, uint16x8_t,
    int32x2_t, int32x4_t, uint32x2_t, uint32x4_t, int64x1_t, int64x2_t, uint64x1_t, uint64x2_t;
typedef struct { v128_t val[2]; } int16x4x2_t;
typedef struct { v128_t val[3]; } int16x4x3_t;
typedef struct { v128_t val[4]; } int16x4x4_t;
typedef struct { v128_t val[2]; } int16x8x2_t;
typedef struct { v128_t val[4]; } int16x8x4_t;
typedef struct { v128_t val[2]; } int32x4x2_t;
typedef struct { v128_t val[2]; } uint32x4x2_t;
typedef struct { v128_t val[2]; } uint8x8x2_t;
typedef struct { v128_t val[3]; } uint8x8x3_t;
typedef struct { v128_t val[4]; } uint8x8x4_t;
typedef struct { v128_t val[2]; } uint8x16x2_t;
typedef struct { v128_t val[3]; } uint8x16x3_t;
typedef struct { v128_t val[4]; } uint8x16x4_t;
typedef struct { v128_t val[4]; } int8x16x4_t;
typedef struct { v128_t val[3]; } int8x16x3_t;
typedef struct { v128_t val[2]; } uint16x4x2_t;
typedef struct { v128_t val[4]; } uint16x4x4_t;
typedef struct { v128_t val[2]; } uint16x8x2_t;
typedef struct { v128_t val[4]; } uint32x2x4_t;

#define NEON_INLINE static inline __attribute__((always_inline))

// Reinterpretations change no bits.
#define vreinterpret_s16_s32(a) (a)
#define vreinterpret_s64_s16(a) (a)
#define vreinterpret_u16_u8(a) (a)
#define vreinterpret_u32_u8(a) (a)
#define vreinterpret_u64_u8(a) (a)
#define vreinterpret_u8_s8(a) (a)
#define vreinterpret_u8_u64(a) (a)
#define vreinterpretq_s16_s32(a) (a)
#define vreinterpretq_s16_s8(a) (a)
#define vreinterpretq_s16_u16(a) (a)
#define vreinterpretq_s32_s16(a) (a)
#define vreinterpretq_s32_u32(a) (a)
#define vreinterpretq_s64_s16(a) (a)
#define vreinterpretq_s8_u8(a) (a)
#define vreinterpretq_u8_s8(a) (a)
#define vreinterpretq_u16_s16(a) (a)
#define vreinterpretq_u16_u32(a) (a)
#define vreinterpretq_u16_u8(a) (a)
#define vreinterpretq_u32_u8(a) (a)
#define vreinterpretq_u64_u8(a) (a)
#define vreinterpretq_u8_s16(a) (a)
#define vreinterpretq_u8_u16(a) (a)
#define vreinterpretq_u8_u32(a) (a)
#define vreinterpretq_u8_u64(a) (a)

// Halves: a d vector is the low half of a register, so taking the low half is free.
#define vget_low_s16(a) (a)
#define vget_low_s32(a) (a)
#define vget_low_u16(a) (a)
#define vget_low_u8(a) (a)
#define vget_high_s16(a) wasm_i64x2_shuffle((a), (a), 1, 1)
#define vget_high_s32(a) wasm_i64x2_shuffle((a), (a), 1, 1)
#define vget_high_u16(a) wasm_i64x2_shuffle((a), (a), 1, 1)
#define vget_high_u8(a) wasm_i64x2_shuffle((a), (a), 1, 1)
#define vcombine_s16(lo, hi) wasm_i64x2_shuffle((lo), (hi), 0, 2)
#define vcombine_s8(lo, hi) wasm_i64x2_shuffle((lo), (hi), 0, 2)
#define vcombine_u16(lo, hi) wasm_i64x2_shuffle((lo), (hi), 0, 2)
#define vcombine_u8(lo, hi) wasm_i64x2_shuffle((lo), (hi), 0, 2)

// Lanes and constants.
#define vdup_n_u8(x) wasm_i8x16_splat((int8_t)(x))
#define vdupq_n_u8(x) wasm_i8x16_splat((int8_t)(x))
#define vdupq_n_s16(x) wasm_i16x8_splat((int16_t)(x))
#define vdupq_n_u16(x) wasm_i16x8_splat((int16_t)(x))
#define vdupq_n_u32(x) wasm_i32x4_splat((int32_t)(x))
#define vdupq_n_u64(x) wasm_i64x2_splat((int64_t)(x))
#define vmov_n_u64(x) wasm_i64x2_splat((int64_t)(x))
#define vget_lane_s64(a, lane) wasm_i64x2_extract_lane((a), (lane))
#define vget_lane_u64(a, lane) ((uint64_t)wasm_i64x2_extract_lane((a), (lane)))
#define vget_lane_u32(a, lane) ((uint32_t)wasm_i32x4_extract_lane((a), (lane)))
#define vgetq_lane_s16(a, lane) wasm_i16x8_extract_lane((a), (lane))
#define vgetq_lane_u16(a, lane) wasm_u16x8_extract_lane((a), (lane))
#define vgetq_lane_s64(a, lane) wasm_i64x2_extract_lane((a), (lane))
#define vsetq_lane_s16(x, a, lane) wasm_i16x8_replace_lane((a), (lane), (x))
#define NEON_SPLAT16(v, lane) wasm_i16x8_shuffle((v), (v), lane, lane, lane, lane, lane, lane, lane, lane)

#include "neon-memory.h"
#include "neon-compute.h"
