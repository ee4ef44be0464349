// Checks zlib's inflate with wasm/zlib/inffast-wide.c (built with -DINFLATE_FAST_WIDE over the patched
// inffast.c) against zlib's own: wasm/zlib/check.mjs compiles this file twice, with and without it, and
// requires the same line for every case. Each case deflates generated data (random, text-like, image
// rows, short periods, sparse, mixed; up to 400 KB) at a random level, window size (2^9–2^15), memory
// level and strategy, then inflates it through input and output buffers of random sizes (1 byte to
// 64 KB, or a PNG row's worth), and prints what came out: each call's return code, the output's hash,
// the input and output consumed, and zlib's message (each call's consumption, return code and
// inflateMark() go into the hash). A third of the cases damage the stream first (bits
// flipped, bytes overwritten, cut short), so the errors and where they stop must agree too. Every call
// must also leave the bytes after its output room untouched and read nothing after its input (the bytes
// there are noise, changed every call), and an undamaged stream must give back exactly its data.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "zlib.h"

static uint32_t rng = 2463534242u;
static uint32_t next(void) {
  rng ^= rng << 13;
  rng ^= rng >> 17;
  rng ^= rng << 5;
  return rng;
}
static uint32_t below(uint32_t n) { return n == 0 ? 0 : next() % n; }

enum { MAX_DATA = 400000, GUARD = 64 };
static unsigned char data[MAX_DATA], packed[MAX_DATA * 2 + 1024], got[MAX_DATA + 300000];
static unsigned char in_room[65536 + GUARD], out_room[65536 + GUARD];
static int bad;  // failed cases

// Writes `size` bytes of the given kind at `to`.
static void generate(unsigned char *to, int kind, size_t size) {
  switch (kind) {
    case 0:  // random bytes
      for (size_t i = 0; i < size; i++) to[i] = (unsigned char)next();
      break;
    case 1:  // text-like: words from a small alphabet, phrases repeated
      for (size_t i = 0; i < size; i++) to[i] = (unsigned char)(below(6) == 0 ? ' ' : 'a' + below(1 + below(26)));
      for (size_t k = 0; k < size / 64; k++) {
        size_t from = below((uint32_t)size), at = below((uint32_t)size), n = 3 + below(300);
        if (from + n <= size && at + n <= size) memmove(to + at, to + from, n);
      }
      break;
    case 2: {  // image rows: a filter byte, then RGBA pixels in runs, many rows copying the one above
      size_t row = 1 + 4 * (1 + below(1500));
      for (size_t i = 0; i < size; i++) {
        size_t x = i % row;
        if (x == 0) to[i] = (unsigned char)below(5);
        else if (i >= row && below(8) != 0) to[i] = to[i - row];
        else if (x > 4 && below(4) != 0) to[i] = to[i - 4];
        else to[i] = (unsigned char)(below(3) == 0 ? 255 : next());
      }
      break;
    }
    case 3: {  // a short period (1–40), mutated now and then
      size_t period = 1 + below(40);
      for (size_t i = 0; i < size; i++) to[i] = i < period || below(200) == 0 ? (unsigned char)next() : to[i - period];
      break;
    }
    case 4:  // mostly zeros
      for (size_t i = 0; i < size; i++) to[i] = below(50) == 0 ? (unsigned char)next() : 0;
      break;
    default:  // segments of the other kinds
      for (size_t at = 0; at < size;) {
        size_t n = 1 + below(20000);
        if (n > size - at) n = size - at;
        generate(to + at, (int)below(5), n);
        at += n;
      }
      break;
  }
}

static uint64_t fnv(uint64_t h, const unsigned char *p, size_t n) {
  for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 1099511628211u;
  return h;
}

// Inflates packed[0, packed_size) through buffers of random sizes and prints the case's line; `expect`
// (NULL for a damaged stream) is what it must give back.
static void inflate_case(int c, int wbits, size_t packed_size, const unsigned char *expect, size_t size) {
  z_stream s;
  memset(&s, 0, sizeof s);
  if (inflateInit2(&s, wbits) != Z_OK) exit(2);
  int in_style = (int)below(3), out_style = (int)below(4);
  uInt row = 1 + 4 * (1 + below(1500));
  size_t fed = 0, total = 0;
  uint64_t hash = 1469598103934665603u;
  int ret = Z_OK, calls = 0;
  char line[512];
  int length = snprintf(line, sizeof line, "case %d:", c);
  while (calls < 1000000) {
    uInt in_n = in_style == 0 ? 1 + below(64) : in_style == 1 ? 1 + below(65536) : 65536;
    if (in_n > packed_size - fed) in_n = (uInt)(packed_size - fed);
    uInt out_n = out_style == 0 ? 1 + below(300) : out_style == 1 ? 256 + below(2000) : out_style == 2 ? row : 65536;
    memcpy(in_room, packed + fed, in_n);
    for (int g = 0; g < GUARD; g++) in_room[in_n + g] = (unsigned char)next();
    memset(out_room + out_n, 0xA5, GUARD);
    s.next_in = in_room;
    s.avail_in = in_n;
    s.next_out = out_room;
    s.avail_out = out_n;
    ret = inflate(&s, Z_NO_FLUSH);
    calls++;
    for (int g = 0; g < GUARD; g++)
      if (out_room[out_n + g] != 0xA5) {
        if (bad++ < 5) printf("case %d: a write past the output room\n", c);
        break;
      }
    uInt used = in_n - s.avail_in, made = out_n - s.avail_out;
    fed += used;
    hash = fnv(hash, out_room, made);
    // Where each call leaves the stream must agree too, not only what it writes: inflateMark() as well,
    // but after a data error (where the wide decoding may have been further along in its own loop when
    // it found the error, and zlib's count of the bad code's bits is of no use to anyone).
    long mark = ret == Z_DATA_ERROR ? 0 : inflateMark(&s);
    const uInt where[3] = {used, made, (uInt)ret};
    hash = fnv(fnv(hash, (const unsigned char *)where, sizeof where), (const unsigned char *)&mark, sizeof mark);
    if (total + made <= sizeof got) memcpy(got + total, out_room, made);
    total += made;
    if (ret != Z_OK) break;
    if (used == 0 && made == 0 && fed == packed_size) break;  // the input ended before the stream
  }
  length += snprintf(line + length, sizeof line - (size_t)length, " ret %d in %lu out %lu hash %016llx msg %s", ret,
                     s.total_in, s.total_out, (unsigned long long)hash, s.msg ? s.msg : "-");
  inflateEnd(&s);
  if (expect && (ret != Z_STREAM_END || total != size || memcmp(got, expect, size) != 0)) {
    if (bad++ < 5) printf("case %d: an undamaged stream did not give back its data (ret %d)\n", c, ret);
  }
  puts(line);
}

// A raw deflate stream written by hand, for distances no compressor writes: one block of fixed codes
// with `n` literals, a match of `len` bytes `dist` back, 40 more literals and the end of the block.
static size_t bit_count;
static void put_bits(uint32_t value, int n) {
  for (int i = 0; i < n; i++, bit_count++) {
    if ((bit_count & 7) == 0) packed[bit_count >> 3] = 0;
    packed[bit_count >> 3] |= (unsigned char)(((value >> i) & 1) << (bit_count & 7));
  }
}
static void put_code(uint32_t code, int n) {  // Huffman codes go most significant bit first
  for (int i = n - 1; i >= 0; i--) put_bits((code >> i) & 1, 1);
}
static void put_symbol(unsigned sym) {  // the fixed literal/length code
  if (sym < 144) put_code(0x30 + sym, 8);
  else if (sym < 256) put_code(0x190 + sym - 144, 9);
  else if (sym < 280) put_code(sym - 256, 7);
  else put_code(0xC0 + sym - 280, 8);
}
static const unsigned short LENGTH_BASE[29] = {3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
static const unsigned char LENGTH_EXTRA[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
static const unsigned short DIST_BASE[30] = {1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577};
static const unsigned char DIST_EXTRA[30] = {0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};

static size_t handmade(size_t n, unsigned len, unsigned dist) {
  bit_count = 0;
  put_bits(1, 1);  // the last block
  put_bits(1, 2);  // fixed codes
  for (size_t i = 0; i < n + 40; i++) {
    if (i == n) {
      int l = 28;
      while (LENGTH_BASE[l] > len) l--;
      put_symbol(257 + (unsigned)l);
      put_bits(len - LENGTH_BASE[l], LENGTH_EXTRA[l]);
      int d = 29;
      while (DIST_BASE[d] > dist) d--;
      put_code((uint32_t)d, 5);
      put_bits(dist - DIST_BASE[d], DIST_EXTRA[d]);
    }
    put_symbol(data[i]);
  }
  put_symbol(256);
  return (bit_count + 7) >> 3;
}

int main(void) {
  int cases = 0;
  for (int c = 0; c < 1500; c++) {
    int kind = (int)below(6);
    size_t size = below(8) == 0 ? below(300) : below(8) == 0 ? 100000 + below(MAX_DATA - 100000) : below(60000);
    generate(data, kind, size);
    int level = (int)below(10), wbits = 9 + (int)below(7), memlevel = 1 + (int)below(9), strategy = (int)below(5);
    int raw = below(4) == 0;
    z_stream d;
    memset(&d, 0, sizeof d);
    if (deflateInit2(&d, level, Z_DEFLATED, raw ? -wbits : wbits, memlevel, strategy) != Z_OK) return 2;
    d.next_in = data;
    d.avail_in = (uInt)size;
    d.next_out = packed;
    d.avail_out = sizeof packed;
    if (deflate(&d, Z_FINISH) != Z_STREAM_END) return 2;
    size_t packed_size = d.total_out;
    deflateEnd(&d);

    int damage = (int)below(3) == 0 ? 1 + (int)below(3) : 0;
    if (damage == 1) {
      for (int k = 0, flips = 1 + (int)below(3); k < flips && packed_size > 0; k++)
        packed[below((uint32_t)packed_size)] ^= (unsigned char)(1u << below(8));
    } else if (damage == 2 && packed_size > 4) {
      size_t at = below((uint32_t)packed_size), n = 1 + below(16);
      for (size_t i = at; i < at + n && i < packed_size; i++) packed[i] = (unsigned char)next();
    } else if (damage == 3) {
      packed_size = below((uint32_t)packed_size + 1);
    }

    inflate_case(c, raw ? -wbits : below(2) ? wbits : 15, packed_size, damage ? NULL : data, size);
    cases++;
  }
  // Matches just inside and just past what has been written (the window's edge), of every length class.
  static const size_t LITERALS[] = {1, 2, 3, 15, 16, 17, 40, 257, 270, 300, 1000, 5121, 32767, 32768, 40000};
  static const unsigned LENGTHS[] = {3, 10, 16, 17, 100, 258};
  for (size_t i = 0; i < sizeof LITERALS / sizeof *LITERALS; i++) {
    for (size_t j = 0; j < sizeof LENGTHS / sizeof *LENGTHS; j++) {
      for (int off = -2; off <= 1; off++) {
        size_t n = LITERALS[i];
        long dist = (long)n + off;
        if (dist < 1 || dist > 32768) continue;
        for (size_t k = 0; k < n + 40; k++) data[k] = (unsigned char)next();
        size_t packed_size = handmade(n, LENGTHS[j], (unsigned)dist);
        for (int repeat = 0; repeat < 3; repeat++) inflate_case(10000 + cases, -15, packed_size, NULL, 0);
        cases++;
      }
    }
  }
  printf("wasm/zlib: %d inflate cases, %d failed\n", cases, bad);
  return bad != 0;
}
