// Checks wasm/zlib/adler32-simd.c against zlib's own Adler-32 (compiled alongside under another name):
// every length 0–2,100 and longer runs across the 5,552-byte reduction boundary, from random and extreme
// starting sums, over random bytes and over all-0xFF bytes (the largest sums). Run by wasm/zlib/check.mjs.
#include <stdio.h>
#include <stdlib.h>
#include "adler32-simd.c"

static uint32_t state = 88172645u;
static uint32_t next(void) { state ^= state << 13; state ^= state >> 17; state ^= state << 5; return state; }

int main(void) {
  enum { SIZE = 3 * 65536 };
  static Bytef data[SIZE];
  int bad = 0, cases = 0;
  for (int fill = 0; fill < 2; fill++) {
    for (size_t i = 0; i < SIZE; i++) data[i] = fill ? 0xFF : (Bytef)next();
    for (size_t len = 0; len <= SIZE; len = len < 2100 ? len + 1 : len * 3 / 2 + 7) {
      for (int start = 0; start < 4; start++) {
        uLong adler = start == 0 ? 1 : start == 1 ? 0xFFF0FFF0 : start == 2 ? 0 : (next() % 65521) | (next() % 65521) << 16;
        size_t offset = next() % 16;
        if (offset + len > SIZE) offset = 0;
        cases++;
        if (adler32_z(adler, data + offset, len) != zlib_adler32_z(adler, data + offset, len)) {
          if (bad++ < 5) printf("adler32 differs from zlib's: length %zu, start %08lx\n", len, adler);
        }
      }
    }
  }
  if (adler32(1, Z_NULL, 0) != 1) bad++;
  printf("wasm/zlib: %d of %d Adler-32 cases differ from zlib's\n", bad, cases);
  return bad != 0;
}
