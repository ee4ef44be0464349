// The statistics pass of libjpeg-turbo's Huffman optimisation (jchuff.c's htest_one_block) in WASM SIMD128:
// the same symbol counts for a block, found without walking its 63 AC coefficients one by one. libjpeg-turbo
// has SIMD for the encoding pass only (simd/arm/aarch64/jchuff-neon.c); with optimize_coding this pass runs
// first over every block. neon-on-wasm32.patch makes htest_one_block call this first.
//
// Each coefficient's bit count (16 − clz of its magnitude: the highest bit smeared down, then counted) is
// computed for all 64 at once and put in zigzag order by swizzles; a 64-bit mask of the nonzero ones then
// gives the zero runs, so the loop visits the nonzero coefficients only.
#include <stdint.h>
#include <wasm_simd128.h>
#define JPEG_INTERNALS
#include "jinclude.h"
#include "jpeglib.h"
#include "jchuff.h"  // MAX_COEF_BITS

int glimpse_huff_gather(const JCOEF *block, int last_dc_val, long dc_counts[], long ac_counts[]);

// ZIGZAG_SOURCE[k][j]: for the 16 zigzag positions 16k … 16k + 15, where each coefficient sits in the
// natural-order bytes 16j … 16j + 15 (its index there), or 0x80 (not there: swizzle gives 0).
static v128_t zigzag_source[4][4];
static int zigzag_ready;

// The JPEG zigzag order: natural-order index of each zigzag position.
static const uint8_t ZIGZAG[64] = {0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48,
    41, 34, 27, 20, 13, 6, 7, 14, 21, 28, 35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59,
    52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63};

static void prepare_zigzag(void) {
  for (int k = 0; k < 4; k++)
    for (int j = 0; j < 4; j++) {
      uint8_t index[16];
      for (int i = 0; i < 16; i++) {
        int natural = ZIGZAG[16 * k + i];
        index[i] = natural / 16 == j ? (uint8_t)(natural % 16) : 0x80;
      }
      zigzag_source[k][j] = wasm_v128_load(index);
    }
  zigzag_ready = 1;
}

// Bit counts of eight coefficients, as 16-bit lanes: the position of the highest set bit of |x|, plus one.
static v128_t bit_counts(v128_t x) {
  v128_t m = wasm_i16x8_abs(x);  // −32768 stays 0x8000: 16 bits, as libjpeg counts it
  m = wasm_v128_or(m, wasm_u16x8_shr(m, 1));
  m = wasm_v128_or(m, wasm_u16x8_shr(m, 2));
  m = wasm_v128_or(m, wasm_u16x8_shr(m, 4));
  m = wasm_v128_or(m, wasm_u16x8_shr(m, 8));
  return wasm_u16x8_extadd_pairwise_u8x16(wasm_i8x16_popcnt(m));
}

// Counts the block's DC and AC symbols as htest_one_block does and returns 1; returns 0, counting nothing,
// when a coefficient is out of range, so that htest_one_block reports it.
int glimpse_huff_gather(const JCOEF *block, int last_dc_val, long dc_counts[], long ac_counts[]) {
  if (!zigzag_ready) prepare_zigzag();
  int dc = block[0] - last_dc_val;
  if (dc < 0) dc = -dc;
  int dc_bits = dc ? 32 - __builtin_clz((unsigned)dc) : 0;
  v128_t natural[4];
  for (int j = 0; j < 4; j++)
    natural[j] = wasm_u8x16_narrow_i16x8(bit_counts(wasm_v128_load(block + 16 * j)),
        bit_counts(wasm_v128_load(block + 16 * j + 8)));
  uint8_t bits[64];  // bit counts in zigzag order, the DC's left 0
  uint64_t nonzero = 0;  // bit i: zigzag position i is a nonzero AC coefficient
  v128_t widest = wasm_i8x16_splat(0);
  for (int k = 0; k < 4; k++) {
    v128_t z = wasm_i8x16_swizzle(natural[0], zigzag_source[k][0]);
    for (int j = 1; j < 4; j++) z = wasm_v128_or(z, wasm_i8x16_swizzle(natural[j], zigzag_source[k][j]));
    if (k == 0) z = wasm_v128_and(z, wasm_i8x16_const(0, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1));
    wasm_v128_store(bits + 16 * k, z);
    widest = wasm_u8x16_max(widest, z);
    nonzero |= (uint64_t)wasm_i8x16_bitmask(wasm_i8x16_ne(z, wasm_i8x16_splat(0))) << (16 * k);
  }
  widest = wasm_u8x16_max(widest, wasm_i64x2_shuffle(widest, widest, 1, 1));
  widest = wasm_u8x16_max(widest, wasm_i32x4_shuffle(widest, widest, 1, 1, 1, 1));
  widest = wasm_u8x16_max(widest, wasm_i16x8_shuffle(widest, widest, 1, 1, 1, 1, 1, 1, 1, 1));
  widest = wasm_u8x16_max(widest, wasm_u16x8_shr(widest, 8));
  if (dc_bits > MAX_COEF_BITS + 1 || wasm_u8x16_extract_lane(widest, 0) > MAX_COEF_BITS) return 0;
  dc_counts[dc_bits]++;
  int position = 1;
  for (uint64_t rest = nonzero >> 1; rest != 0;) {  // bit i: position i + 1
    int zeros = __builtin_ctzll(rest);
    position += zeros;
    int run = zeros;
    for (; run > 15; run -= 16) ac_counts[0xF0]++;
    ac_counts[(run << 4) + bits[position]]++;
    position++;
    rest >>= zeros;
    rest >>= 1;
  }
  if (position < DCTSIZE2) ac_counts[0]++;  // zeros after the last nonzero coefficient: end of block
  return 1;
}
