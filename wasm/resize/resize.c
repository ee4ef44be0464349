// Separable resampling kernel for 8-bit RGBA rasters, built for wasm32 with SIMD128.
//
// The kernel only convolves: the caller (packages/media/src/kernels/resize-kernel.ts) computes the
// filter tables (box pre-shrink, then Lanczos-3). Weights are 2.14 fixed point and sum to 1 << 14 per
// output sample, so every pass is integer-only and deterministic.
//
// It streams: the caller pushes source rows in bands (resize_begin, resize_push, resize_end) and the
// finished rows come back through the host's `emit_rows` import, a band at a time. Each vertical pass
// keeps only a ring of the rows its filter window spans, so no intermediate image, and neither the
// source nor the output, ever exists whole in this module's memory.
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

__attribute__((import_module("env"), import_name("emit_rows"))) void emit_rows(const uint8_t *rows, uint32_t count);

// One pass of the pipeline resize_begin sets up, as the caller describes it: output sample i reads
// `taps` inputs from starts[i] with weights[i * taps ...] (int16; a horizontal pass reads them as int32
// pairs, tap 2k in the low half). `input` and `output` count pixels across (horizontal) or rows (vertical).
struct pass_table {
  const int32_t *starts;
  const int16_t *weights;
  uint32_t taps, input, output, vertical;
};

// A pass while it runs. A vertical pass keeps its last `taps` input rows in a ring (row r in slot
// r % taps): output row y needs rows starts[y] .. starts[y] + taps - 1, and is made as soon as the last
// of them has arrived, so a row is overwritten only once no later window reaches back to it.
struct pass {
  struct pass_table table;
  uint32_t row_bytes;   // bytes of one input row
  uint8_t *rows;        // vertical: the ring; horizontal: scratch for its output when the next pass is horizontal too
  uint32_t received;    // vertical: input rows so far
  uint32_t made;        // vertical: output rows so far
};

#define MAX_PASSES 4
static struct {
  struct pass passes[MAX_PASSES];
  uint32_t count;
  uint32_t premultiplied;
  const uint8_t **row_pointers;
  uint8_t *out;              // finished rows, handed to the host when `out_capacity` are ready and at the end
  uint32_t out_row_bytes, out_capacity, out_count, out_total, out_expected;
} pipeline;

// Zero-weighted taps past a row's end are still read (the row kernel loads whole pairs): every row
// buffer gets this much slack.
#define ROW_SLACK(taps) (16u + (taps) * 4u)

static void premultiply(uint8_t *rgba, uint32_t pixels);
static void unpremultiply(uint8_t *rgba, uint32_t pixels);

// Where pass `i` wants its next input row, or NULL when it reads rows in place (a horizontal pass).
static uint8_t *input_slot(uint32_t i) {
  if (i == pipeline.count) return pipeline.out + (uintptr_t)pipeline.out_count * pipeline.out_row_bytes;
  struct pass *p = &pipeline.passes[i];
  if (!p->table.vertical) return 0;
  return p->rows + (uintptr_t)(p->received % p->table.taps) * p->row_bytes;
}

static void flush_output(void) {
  if (pipeline.out_count == 0) return;
  emit_rows(pipeline.out, pipeline.out_count);
  pipeline.out_total += pipeline.out_count;
  pipeline.out_count = 0;
}

// Takes one input row of pass `i` (at `row`) and carries it, and whatever it completes, to the end.
static void take_row(uint32_t i, const uint8_t *row) {
  uint8_t *slot = input_slot(i);
  if (i == pipeline.count) {
    if (slot != row) __builtin_memcpy(slot, row, pipeline.out_row_bytes);
    if (pipeline.premultiplied) unpremultiply(slot, pipeline.out_row_bytes / 4);
    if (++pipeline.out_count == pipeline.out_capacity) flush_output();
    return;
  }
  struct pass *p = &pipeline.passes[i];
  const struct pass_table *t = &p->table;
  if (!t->vertical) {
    uint8_t *next = input_slot(i + 1);
    if (!next) next = p->rows;
    filter_row(row, (uint32_t *)next, t->output, t->starts, (const int32_t *)t->weights, t->taps / 2);
    take_row(i + 1, next);
    return;
  }
  if (slot != row) __builtin_memcpy(slot, row, p->row_bytes);
  p->received++;
  while (p->made < t->output) {
    uint32_t first = (uint32_t)t->starts[p->made];
    uint32_t end = first + t->taps < t->input ? first + t->taps : t->input;
    if (end > p->received) break;
    for (uint32_t k = 0; k < t->taps; k++) {
      uint32_t r = first + k < t->input ? first + k : t->input - 1;  // zero-weight taps past the end
      pipeline.row_pointers[k] = p->rows + (uintptr_t)(r % t->taps) * p->row_bytes;
    }
    uint8_t *next = input_slot(i + 1);
    if (!next) next = p->rows + (uintptr_t)t->taps * p->row_bytes;  // the ring's spare row
    filter_column_row(pipeline.row_pointers, next, p->row_bytes, t->weights + (uintptr_t)p->made * t->taps, t->taps);
    p->made++;
    take_row(i + 1, next);
  }
}

// Sets up a resize of `width`-pixel rows through `count` passes (tables at `tables`, in order; the
// caller keeps them alive until resize_end). Rows are premultiplied on the way in and back on the way out
// when `premultiply` is set; opaque pixels pass both unchanged. Finished rows go to emit_rows in bands of
// up to `out_capacity` rows. Returns 0 when memory runs out.
__attribute__((export_name("resize_begin"))) uint32_t resize_begin(
    const struct pass_table *tables, uint32_t count, uint32_t width, uint32_t premultiply, uint32_t out_capacity) {
  if (count > MAX_PASSES) return 0;
  pipeline.count = count;
  pipeline.premultiplied = premultiply;
  uint32_t most_taps = 1;
  for (uint32_t i = 0; i < count; i++) {
    struct pass *p = &pipeline.passes[i];
    p->table = tables[i];
    p->received = 0;
    p->made = 0;
    p->row_bytes = width * 4;
    if (p->table.taps > most_taps) most_taps = p->table.taps;
    if (p->table.vertical) {
      // The ring, plus one row for the output when the next pass reads rows in place.
      p->rows = alloc((p->table.taps + 1) * p->row_bytes + ROW_SLACK(p->table.taps));
    } else {
      width = p->table.output;
      p->rows = alloc(width * 4 + ROW_SLACK(p->table.taps));
    }
    if (!p->rows) return 0;
  }
  pipeline.row_pointers = alloc(most_taps * sizeof(uint8_t *));
  pipeline.out_row_bytes = width * 4;
  pipeline.out_capacity = out_capacity;
  pipeline.out_count = 0;
  pipeline.out_total = 0;
  pipeline.out = alloc(out_capacity * width * 4 + ROW_SLACK(most_taps));
  return pipeline.row_pointers && pipeline.out ? 1 : 0;
}

// Pushes the next `count` source rows (back to back at `rows`, each resize_begin's `width` pixels, with
// ROW_SLACK bytes readable after the last). The rows are premultiplied in place.
__attribute__((export_name("resize_push"))) void resize_push(uint8_t *rows, uint32_t count) {
  uint32_t row_bytes = pipeline.count > 0 ? pipeline.passes[0].row_bytes : pipeline.out_row_bytes;
  for (uint32_t r = 0; r < count; r++) {
    uint8_t *row = rows + (uintptr_t)r * row_bytes;
    if (pipeline.premultiplied) premultiply(row, row_bytes / 4);
    take_row(0, row);
  }
}

// Hands over the last finished rows; returns how many rows were made in all.
__attribute__((export_name("resize_end"))) uint32_t resize_end(void) {
  flush_output();
  return pipeline.out_total;
}

// Colour times alpha, so that filtering weights each pixel by its coverage.
static void premultiply(uint8_t *rgba, uint32_t pixels) {
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
static void unpremultiply(uint8_t *rgba, uint32_t pixels) {
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
