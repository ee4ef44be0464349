// Separable resampling kernel for 8-bit RGBA rasters, built for wasm32 with SIMD128.
//
// The kernel only convolves: the caller (packages/media/src/kernels/resize-kernel.ts) computes the
// filter tables (box pre-shrink, then Lanczos-3) and runs one pass per axis. Weights are 2.14 fixed
// point and sum to 1 << 14 per output sample, so every pass is integer-only and deterministic.
// No libc: memory comes from a bump allocator over the module's own linear memory, and the caller
// instantiates the module afresh per resize so that memory is released with the instance.

#include <stdint.h>
#include <wasm_simd128.h>

#define WEIGHT_BITS 14
#define ROUNDING (1 << (WEIGHT_BITS - 1))

extern unsigned char __heap_base;
static uintptr_t heap_top = 0;

// Returns 16-byte aligned memory, growing linear memory as needed; 0 when memory cannot grow.
__attribute__((export_name("alloc"))) void *alloc(uint32_t bytes) {
  if (heap_top == 0) heap_top = ((uintptr_t)&__heap_base + 15) & ~(uintptr_t)15;
  uintptr_t start = heap_top;
  uintptr_t end = (start + bytes + 15) & ~(uintptr_t)15;
  uintptr_t have = __builtin_wasm_memory_size(0) * 65536u;
  if (end > have) {
    uintptr_t pages = (end - have + 65535u) / 65536u;
    if (__builtin_wasm_memory_grow(0, pages) == (uintptr_t)-1) return 0;
  }
  heap_top = end;
  return (void *)start;
}

// Rounds 2.14 fixed-point sums to bytes, saturating both ends (Lanczos lobes can overshoot).
static inline v128_t pack_sums(v128_t a, v128_t b, v128_t c, v128_t d) {
  const v128_t round = wasm_i32x4_splat(ROUNDING);
  a = wasm_i32x4_shr(wasm_i32x4_add(a, round), WEIGHT_BITS);
  b = wasm_i32x4_shr(wasm_i32x4_add(b, round), WEIGHT_BITS);
  c = wasm_i32x4_shr(wasm_i32x4_add(c, round), WEIGHT_BITS);
  d = wasm_i32x4_shr(wasm_i32x4_add(d, round), WEIGHT_BITS);
  return wasm_u8x16_narrow_i16x8(wasm_i16x8_narrow_i32x4(a, b), wasm_i16x8_narrow_i32x4(c, d));
}

static inline uint32_t pack_pixel(v128_t sum) {
  v128_t zero = wasm_i32x4_splat(0);
  return wasm_u32x4_extract_lane(pack_sums(sum, zero, zero, zero), 0);
}

// Interleaves two RGBA pixels channel by channel and widens to int16: r0 r1 g0 g1 b0 b1 a0 a1.
// Indices >= 16 select zero, which is the high byte of each int16 lane.
#define INTERLEAVE_LOW wasm_i8x16_make(0, -1, 4, -1, 1, -1, 5, -1, 2, -1, 6, -1, 3, -1, 7, -1)
#define INTERLEAVE_HIGH wasm_i8x16_make(8, -1, 12, -1, 9, -1, 13, -1, 10, -1, 14, -1, 11, -1, 15, -1)

// Per-row functions are kept out of line on purpose: V8 first runs WASM in its baseline compiler and
// swaps in optimised code only when a function is called again, so one long call would never speed up.

// One row of the horizontal pass: `dst_width` output pixels from one source row.
__attribute__((noinline)) static void filter_row(const uint8_t *row, uint32_t *out, uint32_t dst_width,
                              const int32_t *starts, const int32_t *weights, uint32_t pairs) {
  const v128_t interleave = INTERLEAVE_LOW;
  const v128_t interleave_high = INTERLEAVE_HIGH;
  for (uint32_t x = 0; x < dst_width; x++) {
    const uint8_t *p = row + (uintptr_t)starts[x] * 4;
    v128_t sum0 = wasm_i32x4_splat(0);
    v128_t sum1 = wasm_i32x4_splat(0);
    uint32_t i = 0;
    for (; i + 1 < pairs; i += 2) {
      v128_t px = wasm_v128_load(p);
      v128_t lo = wasm_i8x16_swizzle(px, interleave);
      v128_t hi = wasm_i8x16_swizzle(px, interleave_high);
      sum0 = wasm_i32x4_add(sum0, wasm_i32x4_dot_i16x8(lo, wasm_i32x4_splat(weights[i])));
      sum1 = wasm_i32x4_add(sum1, wasm_i32x4_dot_i16x8(hi, wasm_i32x4_splat(weights[i + 1])));
      p += 16;
    }
    if (i < pairs) {
      v128_t lo = wasm_i8x16_swizzle(wasm_v128_load64_zero(p), interleave);
      sum0 = wasm_i32x4_add(sum0, wasm_i32x4_dot_i16x8(lo, wasm_i32x4_splat(weights[i])));
    }
    out[x] = pack_pixel(wasm_i32x4_add(sum0, sum1));
    weights += pairs;
  }
}

// One row of the vertical pass: weights w[0..taps) applied to the rows rows[0..taps), each `row_bytes` long.
// Taps go in pairs: two rows' bytes are interleaved and widened to int16, and one dot product applies
// both weights (r_a*w_a + r_b*w_b per lane), halving the multiplies.
__attribute__((noinline)) static void filter_column_row(const uint8_t *const *rows, uint8_t *out, uint32_t row_bytes,
                                     const int16_t *w, uint32_t taps) {
  const v128_t zero = wasm_i32x4_splat(0);
  uint32_t x = 0;
  for (; x + 16 <= row_bytes; x += 16) {
    v128_t s0 = zero, s1 = zero, s2 = zero, s3 = zero;
    uint32_t t = 0;
    for (; t + 1 < taps; t += 2) {
      v128_t a = wasm_v128_load(rows[t] + x);
      v128_t b = wasm_v128_load(rows[t + 1] + x);
      v128_t k = wasm_i32x4_splat((int32_t)(uint16_t)w[t] | ((int32_t)w[t + 1] << 16));
      v128_t lo = wasm_i8x16_shuffle(a, b, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
      v128_t hi = wasm_i8x16_shuffle(a, b, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
      s0 = wasm_i32x4_add(s0, wasm_i32x4_dot_i16x8(wasm_u16x8_extend_low_u8x16(lo), k));
      s1 = wasm_i32x4_add(s1, wasm_i32x4_dot_i16x8(wasm_u16x8_extend_high_u8x16(lo), k));
      s2 = wasm_i32x4_add(s2, wasm_i32x4_dot_i16x8(wasm_u16x8_extend_low_u8x16(hi), k));
      s3 = wasm_i32x4_add(s3, wasm_i32x4_dot_i16x8(wasm_u16x8_extend_high_u8x16(hi), k));
    }
    if (t < taps) {
      v128_t v = wasm_v128_load(rows[t] + x);
      v128_t k = wasm_i16x8_splat(w[t]);
      v128_t lo = wasm_u16x8_extend_low_u8x16(v);
      v128_t hi = wasm_u16x8_extend_high_u8x16(v);
      s0 = wasm_i32x4_add(s0, wasm_i32x4_extmul_low_i16x8(lo, k));
      s1 = wasm_i32x4_add(s1, wasm_i32x4_extmul_high_i16x8(lo, k));
      s2 = wasm_i32x4_add(s2, wasm_i32x4_extmul_low_i16x8(hi, k));
      s3 = wasm_i32x4_add(s3, wasm_i32x4_extmul_high_i16x8(hi, k));
    }
    wasm_v128_store(out + x, pack_sums(s0, s1, s2, s3));
  }
  for (; x < row_bytes; x += 4) {
    v128_t s = wasm_i32x4_splat(0);
    for (uint32_t t = 0; t < taps; t++) {
      v128_t v = wasm_u32x4_extend_low_u16x8(wasm_u16x8_extend_low_u8x16(wasm_v128_load32_zero(rows[t] + x)));
      s = wasm_i32x4_add(s, wasm_i32x4_mul(v, wasm_i32x4_splat(w[t])));
    }
    *(uint32_t *)(out + x) = pack_pixel(s);
  }
}

// Horizontal pass: each of `rows` rows of `src_width` RGBA pixels becomes `dst_width` pixels.
// For output x, taps start at pixel starts[x]; `taps` is even and starts[x] + taps <= src_width.
// pair_weights holds, per output x, taps/2 int32 words, each two int16 weights (tap 2i low, 2i+1 high).
__attribute__((export_name("convolve_rows"))) void convolve_rows(
    const uint8_t *src, uint32_t src_width, uint32_t rows, uint8_t *dst, uint32_t dst_width,
    const int32_t *starts, const int32_t *pair_weights, uint32_t taps) {
  for (uint32_t y = 0; y < rows; y++) {
    filter_row(src + (uintptr_t)y * src_width * 4, (uint32_t *)(dst + (uintptr_t)y * dst_width * 4), dst_width,
               starts, pair_weights, taps / 2);
  }
}

// Vertical pass over `src_rows` rows of `row_bytes` bytes: output row y sums `taps` source rows from
// starts[y], weighted by weights[y * taps + t] (int16, 2.14 fixed point). Taps past the last row weigh
// zero and read the last row. `row_pointers` is scratch space for `taps` pointers.
__attribute__((export_name("convolve_columns"))) void convolve_columns(
    const uint8_t *src, uint32_t row_bytes, uint32_t src_rows, uint8_t *dst, uint32_t dst_rows,
    const int32_t *starts, const int16_t *weights, uint32_t taps, const uint8_t **row_pointers) {
  for (uint32_t y = 0; y < dst_rows; y++) {
    for (uint32_t t = 0; t < taps; t++) {
      uint32_t r = (uint32_t)starts[y] + t;
      row_pointers[t] = src + (uintptr_t)(r < src_rows ? r : src_rows - 1) * row_bytes;
    }
    filter_column_row(row_pointers, dst + (uintptr_t)y * row_bytes, row_bytes, weights + (uintptr_t)y * taps, taps);
  }
}

// Both passes in one sweep: each output row is filtered from a ring of `col_taps` horizontally filtered
// rows, each computed once just before it is first needed. The intermediate image never exists whole,
// and the rows the vertical filter reads are still in cache. `ring` holds col_taps rows of dst_width
// pixels; `row_pointers` is scratch space for col_taps pointers.
__attribute__((export_name("resize_streaming"))) void resize_streaming(
    const uint8_t *src, uint32_t src_width, uint32_t src_height, uint8_t *dst, uint32_t dst_width, uint32_t dst_height,
    const int32_t *row_starts, const int32_t *row_pair_weights, uint32_t row_taps,
    const int32_t *col_starts, const int16_t *col_weights, uint32_t col_taps,
    uint8_t *ring, const uint8_t **row_pointers) {
  const uint32_t row_bytes = dst_width * 4;
  uint32_t next = 0;  // the first source row not yet filtered horizontally
  for (uint32_t y = 0; y < dst_height; y++) {
    uint32_t first = (uint32_t)col_starts[y];
    if (next < first) next = first;  // rows no window needs are skipped
    uint32_t end = first + col_taps < src_height ? first + col_taps : src_height;
    for (; next < end; next++) {
      filter_row(src + (uintptr_t)next * src_width * 4, (uint32_t *)(ring + (uintptr_t)(next % col_taps) * row_bytes),
                 dst_width, row_starts, row_pair_weights, row_taps / 2);
    }
    for (uint32_t t = 0; t < col_taps; t++) {
      uint32_t r = first + t < src_height ? first + t : src_height - 1;  // zero-weight taps past the end
      row_pointers[t] = ring + (uintptr_t)(r % col_taps) * row_bytes;
    }
    filter_column_row(row_pointers, dst + (uintptr_t)y * row_bytes, row_bytes, col_weights + (uintptr_t)y * col_taps, col_taps);
  }
}

// 1 when every alpha byte is 255: such images skip premultiplication entirely.
__attribute__((export_name("is_opaque"))) uint32_t is_opaque(const uint8_t *rgba, uint32_t pixels) {
  const v128_t alpha_mask = wasm_u32x4_splat(0xff000000u);
  v128_t all = alpha_mask;
  uint32_t i = 0;
  for (; i + 4 <= pixels; i += 4) all = wasm_v128_and(all, wasm_v128_load(rgba + i * 4));
  if (!wasm_i32x4_all_true(wasm_i32x4_eq(wasm_v128_and(all, alpha_mask), alpha_mask))) return 0;
  for (; i < pixels; i++) {
    if (rgba[i * 4 + 3] != 255) return 0;
  }
  return 1;
}

// Colour times alpha, so that filtering weights each pixel by its coverage.
__attribute__((export_name("premultiply"))) void premultiply(uint8_t *rgba, uint32_t pixels) {
  for (uint32_t i = 0; i < pixels; i++, rgba += 4) {
    uint32_t a = rgba[3];
    if (a == 255) continue;
    for (int c = 0; c < 3; c++) {
      uint32_t v = rgba[c] * a + 128;
      rgba[c] = (uint8_t)((v + (v >> 8)) >> 8);
    }
  }
}

// Back to straight alpha; colour saturates at 255 where ringing pushed it above alpha.
__attribute__((export_name("unpremultiply"))) void unpremultiply(uint8_t *rgba, uint32_t pixels) {
  for (uint32_t i = 0; i < pixels; i++, rgba += 4) {
    uint32_t a = rgba[3];
    if (a == 255) continue;
    if (a == 0) {
      rgba[0] = rgba[1] = rgba[2] = 0;
      continue;
    }
    for (int c = 0; c < 3; c++) {
      uint32_t v = (rgba[c] * 255u + a / 2) / a;
      rgba[c] = (uint8_t)(v > 255 ? 255 : v);
    }
  }
}
