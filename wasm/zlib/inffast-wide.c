// zlib's inflate_fast, wide: the same decoding of literal/length and distance codes as zlib 1.2.13's
// inffast.c, with a 64-bit bit buffer refilled 8 bytes at a time and match copies made 16 bytes at a time
// (SIMD128), where zlib's wasm32 build has a 32-bit buffer filled a byte at a time and copies a byte at a
// time. inffast-wide.patch makes zlib's inflate_fast call this first; what it leaves (the last 274 bytes
// of output room, the last 8 bytes of input, or a stream that allows distances too far back) zlib's own
// loop decodes as before. Same output, same errors, same stream positions between calls.
//
// Bounds: a pass of the loop reads at most 8 input bytes (one refill) and writes at most 258 bytes plus
// up to 15 past them, which the next pass overwrites: the loop runs while 8 bytes of input and 258 + 16
// bytes of output room are left. Bytes past `next_out` within `avail_out` are the caller's room and hold
// nothing yet, as for zlib (its window and the caller's output are separate buffers). The window is never
// read past its end.
#include <stdint.h>
#include <string.h>
#include <wasm_simd128.h>
#include "zutil.h"
#include "inftrees.h"
#include "inflate.h"
#include "inffast-wide.h"

#define IN_SLACK 8u
#define OUT_SLACK (258u + 16u)

static inline uint64_t load64(const unsigned char *at) {
  uint64_t value;
  memcpy(&value, at, 8);  // wasm32 is little-endian, as the deflate bit order wants
  return value;
}

static inline void copy16(unsigned char *to, const unsigned char *from) {
  wasm_v128_store(to, wasm_v128_load(from));
}

// n (1–258) bytes from a buffer that is not the output (the window): reads exactly [from, from + n),
// writes [to, to + n) and, when n < 16 is not a multiple of 4 or 8, nothing past it either.
static inline void copy_window(unsigned char *to, const unsigned char *from, unsigned n) {
  if (n >= 16) {
    unsigned i = 0;
    for (; i + 16 < n; i += 16) copy16(to + i, from + i);
    copy16(to + n - 16, from + n - 16);  // the last 16, overlapping what the loop wrote with the same bytes
  } else if (n >= 8) {
    uint64_t a, b;
    memcpy(&a, from, 8);
    memcpy(&b, from + n - 8, 8);
    memcpy(to, &a, 8);
    memcpy(to + n - 8, &b, 8);
  } else if (n >= 4) {
    uint32_t a, b;
    memcpy(&a, from, 4);
    memcpy(&b, from + n - 4, 4);
    memcpy(to, &a, 4);
    memcpy(to + n - 4, &b, 4);
  } else {
    to[0] = from[0];
    if (n > 1) to[1] = from[1];
    if (n > 2) to[2] = from[2];
  }
}

// For a distance d below 16, byte i of a 16-byte pattern is byte i % d of the d bytes before the output.
static const uint8_t PERIODIC[16][16] = {
    {0},
    {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1},
    {0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0},
    {0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3},
    {0, 1, 2, 3, 4, 0, 1, 2, 3, 4, 0, 1, 2, 3, 4, 0},
    {0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3},
    {0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1},
    {0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7},
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 0, 1, 2, 3, 4, 5, 6},
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1, 2, 3, 4, 5},
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0, 1, 2, 3, 4},
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 0, 1, 2, 3},
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 0, 1, 2},
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 0, 1},
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 0},
};

// len (1–258) bytes of a match `dist` back in the output itself (the source may overlap what is being
// written, as LZ77 means it to). May write up to 15 bytes past out + len.
static inline void copy_match(unsigned char *out, unsigned dist, unsigned len) {
  const unsigned char *from = out - dist;
  if (dist >= 16) {
    // Each 16 bytes read lie at least 16 before where they go: all written already.
    for (unsigned i = 0; i < len; i += 16) copy16(out + i, from + i);
    return;
  }
  // A short period: one pattern vector of the d bytes repeated, stored every 16 - 16 % d bytes (a whole
  // number of periods, so each store starts at the same phase).
  v128_t pattern = wasm_i8x16_swizzle(wasm_v128_load(from), wasm_v128_load(PERIODIC[dist]));
  unsigned step = 16 - 16 % dist;
  for (unsigned i = 0; i < len; i += step) wasm_v128_store(out + i, pattern);
}

// The part of a match that is in the window (and the rest, from the output), out of the main loop so that
// its variables do not take registers there. Returns the new output position, or NULL when the distance
// reaches past what the window holds.
__attribute__((noinline)) static unsigned char *copy_from_window(
    const struct inflate_state FAR *state, unsigned char *out, unsigned back, unsigned dist, unsigned len) {
  const unsigned wsize = state->wsize, wnext = state->wnext;
  const unsigned char FAR *window = state->window;
  if (back > state->whave) return NULL;
  if (wnext == 0 || wnext >= back) {  // contiguous in the window (wnext 0: it is full, its newest byte last)
    unsigned part = back < len ? back : len;
    copy_window(out, window + (wnext == 0 ? wsize : wnext) - back, part);
    out += part;
    len -= part;
  } else {  // wrapped: the window's end, then its start
    unsigned tail = back - wnext;
    unsigned part = tail < len ? tail : len;
    copy_window(out, window + wsize - tail, part);
    out += part;
    len -= part;
    if (len > 0) {
      part = wnext < len ? wnext : len;
      copy_window(out, window, part);
      out += part;
      len -= part;
    }
  }
  if (len > 0) {  // the rest from the output
    copy_match(out, dist, len);
    out += len;
  }
  return out;
}

int ZLIB_INTERNAL inflate_fast_wide(z_streamp strm, unsigned start) {
  struct inflate_state FAR *state = (struct inflate_state FAR *)strm->state;
  if (!state->sane || strm->avail_in < IN_SLACK || strm->avail_out < OUT_SLACK) return 0;
  const unsigned char *in = strm->next_in;
  const unsigned char *in_end = in + strm->avail_in;
  const unsigned char *in_limit = in_end - IN_SLACK;  // while in <= in_limit, a refill may load 8 bytes
  unsigned char *out = strm->next_out;
  unsigned char *out_end = out + strm->avail_out;
  unsigned char *out_limit = out_end - OUT_SLACK;
  unsigned char *beg = out - (start - strm->avail_out);  // inflate()'s first output byte of this call
  const code FAR *lcode = state->lencode;
  const code FAR *dcode = state->distcode;
  const unsigned lmask = (1U << state->lenbits) - 1, dmask = (1U << state->distbits) - 1;
  // The bits above `bits` are the input's next bits (the refill loads 8 bytes and counts the whole ones),
  // so or-ing the next load over them changes nothing; they are cleared on the way out.
  uint64_t hold = state->hold;
  unsigned bits = state->bits;
  int ended = 0;

  while (in <= in_limit && out <= out_limit) {
    hold |= load64(in) << bits;
    in += (63 - bits) >> 3;
    bits |= 56;  // 56–63 bits: a literal/length code, its extra bits, a distance code and its extra bits take at most 48
    code here = lcode[hold & lmask];
    if (here.op == 0) {
      // Up to three literals a refill (a code is at most 15 bits); a length after one waits for the next.
      hold >>= here.bits;
      bits -= here.bits;
      *out++ = (unsigned char)here.val;
      here = lcode[hold & lmask];
      if (here.op != 0) continue;
      hold >>= here.bits;
      bits -= here.bits;
      *out++ = (unsigned char)here.val;
      here = lcode[hold & lmask];
      if (here.op != 0) continue;
      hold >>= here.bits;
      bits -= here.bits;
      *out++ = (unsigned char)here.val;
      continue;
    }
    unsigned op;
  length_code:
    op = here.bits;
    hold >>= op;
    bits -= op;
    op = here.op;
    if (op == 0) {  // a literal from a second-level table
      *out++ = (unsigned char)here.val;
      continue;
    }
    if ((op & 16) == 0) {
      if ((op & 64) == 0) {  // a second-level length table
        here = lcode[here.val + (hold & ((1U << op) - 1))];
        goto length_code;
      }
      if (op & 32) {
        state->mode = TYPE;  // the end of the block
      } else {
        strm->msg = (char *)"invalid literal/length code";
        state->mode = BAD;
      }
      ended = 1;
      break;
    }
    unsigned len = here.val;
    op &= 15;  // extra bits of the length
    len += (unsigned)hold & ((1U << op) - 1);
    hold >>= op;
    bits -= op;
    here = dcode[hold & dmask];
  distance_code:
    op = here.bits;
    hold >>= op;
    bits -= op;
    op = here.op;
    if ((op & 16) == 0) {
      if ((op & 64) == 0) {  // a second-level distance table
        here = dcode[here.val + (hold & ((1U << op) - 1))];
        goto distance_code;
      }
      strm->msg = (char *)"invalid distance code";
      state->mode = BAD;
      ended = 1;
      break;
    }
    unsigned dist = here.val;
    op &= 15;  // extra bits of the distance
    dist += (unsigned)hold & ((1U << op) - 1);
    hold >>= op;
    bits -= op;
    unsigned written = (unsigned)(out - beg);
    if (dist <= written) {
      copy_match(out, dist, len);
      out += len;
      continue;
    }
    // Some of the match is in the window: dist - written bytes back from its newest byte.
    unsigned char *after = copy_from_window(state, out, dist - written, dist, len);
    if (after == NULL) {
      strm->msg = (char *)"invalid distance too far back";
      state->mode = BAD;
      ended = 1;
      break;
    }
    out = after;
  }

  // Give back the whole bytes not used (bits < 8 after), as zlib's own loop leaves the stream.
  unsigned unused = bits >> 3;
  in -= unused;
  bits -= unused << 3;
  hold &= (1U << bits) - 1;
  strm->next_in = (z_const unsigned char *)in;
  strm->avail_in = (uInt)(in_end - in);
  strm->next_out = out;
  strm->avail_out = (uInt)(out_end - out);
  state->hold = (unsigned long)hold;
  state->bits = bits;
  return ended;
}
