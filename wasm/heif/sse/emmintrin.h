// <emmintrin.h> for wasm32: libde265's x86 transforms (x86/sse-dct.cc) get the SSE2 intrinsics from SIMDe
// (Debian's libsimde-dev), which implements them with WASM SIMD128 instructions.
#pragma once
#define SIMDE_ENABLE_NATIVE_ALIASES
#include <simde/x86/sse2.h>

// SIMDe 0.7.4 builds _mm_madd_epi16 from widening shuffles, multiplies and adds (eight instructions);
// WASM's i32x4.dot_i16x8_s is the same operation in one: pairwise 16×16-bit products summed to 32 bits,
// wrapping alike in the one case that overflows (both pairs −32768 × −32768).
#undef _mm_madd_epi16
#define _mm_madd_epi16(a, b) wasm_i32x4_dot_i16x8((a), (b))
