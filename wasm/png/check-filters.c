// Checks libpng's Neon filters as png.wasm builds them (arm/filter_neon_intrinsics.c over
// wasm/neon/arm_neon.h, with neon-halves.patch) against the PNG specification's unfiltering, written out
// byte by byte below: Sub, Up, Average and Paeth, 3- and 4-byte pixels, every row width from 1 to 69
// pixels, random rows. Run by wasm/png/check.mjs.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pngpriv.h"

static int paeth(int a, int b, int c) {
  int p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

// The specification's reconstruction of one row: a is the byte one pixel left, b above, c above-left.
static void unfilter(int filter, size_t bpp, unsigned char *row, const unsigned char *prior, size_t bytes) {
  for (size_t i = 0; i < bytes; i++) {
    int a = i >= bpp ? row[i - bpp] : 0, b = prior[i], c = i >= bpp ? prior[i - bpp] : 0;
    int x = filter == PNG_FILTER_VALUE_SUB ? a : filter == PNG_FILTER_VALUE_UP ? b
        : filter == PNG_FILTER_VALUE_AVG ? (a + b) / 2 : paeth(a, b, c);
    row[i] = (unsigned char)(row[i] + x);
  }
}

typedef void (*filter_fn)(png_row_infop, png_bytep, png_const_bytep);

static filter_fn neon_filter(int filter, int bpp) {
  if (filter == PNG_FILTER_VALUE_UP) return png_read_filter_row_up_neon;
  if (bpp == 3)
    return filter == PNG_FILTER_VALUE_SUB ? png_read_filter_row_sub3_neon
        : filter == PNG_FILTER_VALUE_AVG ? png_read_filter_row_avg3_neon : png_read_filter_row_paeth3_neon;
  return filter == PNG_FILTER_VALUE_SUB ? png_read_filter_row_sub4_neon
      : filter == PNG_FILTER_VALUE_AVG ? png_read_filter_row_avg4_neon : png_read_filter_row_paeth4_neon;
}

int main(void) {
  unsigned state = 1;
  int bad = 0, cases = 0;
  for (int bpp = 3; bpp <= 4; bpp++)
    for (int filter = PNG_FILTER_VALUE_SUB; filter <= PNG_FILTER_VALUE_PAETH; filter++)
      for (int width = 1; width < 70; width++) {
        size_t bytes = (size_t)width * bpp;
        // libpng's row buffers have room past the row; the Neon code reads (not writes) up to 16 bytes on.
        unsigned char *row = calloc(bytes + 64, 1), *prior = calloc(bytes + 64, 1), *expected = malloc(bytes);
        if (!row || !prior || !expected) return 2;
        for (size_t i = 0; i < bytes; i++) {
          state = state * 1103515245u + 12345u;
          row[i] = (unsigned char)(state >> 16);
          state = state * 1103515245u + 12345u;
          prior[i] = (unsigned char)(state >> 16);
        }
        memcpy(expected, row, bytes);
        unfilter(filter, (size_t)bpp, expected, prior, bytes);
        png_row_info info = {0};
        info.rowbytes = bytes;
        info.pixel_depth = (png_byte)(bpp * 8);
        neon_filter(filter, bpp)(&info, row, prior);
        cases++;
        if (memcmp(row, expected, bytes) != 0 && bad++ < 5)
          printf("filter %d, %d-byte pixels, %d wide: differs from the specification\n", filter, bpp, width);
        free(row);
        free(prior);
        free(expected);
      }
  printf("wasm/png: %d of %d Neon filter cases differ from the PNG specification\n", bad, cases);
  return bad != 0;
}
