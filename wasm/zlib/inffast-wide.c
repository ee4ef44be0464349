// zlib's inflate_fast, wide: the same decoding of literal/length and distance codes as zlib 1.2.13's
// inffast.c, with a 64-bit bit buffer refilled 8 bytes at a time and match copies made 16 bytes at a time
// (SIMD128), where zlib's wasm32 build has a 32-bit buffer filled a byte at a time and copies a byte at a
// time. inflate-wide.patch makes inflate() call it in place of inflate_fast whenever 8 bytes of input are
// left, whatever the output room: it also decodes the last bytes of the room, which zlib leaves to
// inflate()'s one-code-a-step loop (a PNG row is one inflate() call: 5 % of a 1280-pixel row went that
// way), and leaves the stream exactly as that loop would: same output, errors, stream positions and
// inflateMark() after every call that does not end in a data error (wasm/zlib/check.mjs compares them).
//
// Bounds: a pass of the main loop reads at most 8 input bytes (one refill) and writes at most 258 bytes
// plus up to 15 past them, which the next pass overwrites: it runs while 8 bytes of input and 258 + 16
// bytes of output room are left, then a loop with exact copies takes the rest of the room. Bytes past
// `next_out` within `avail_out` are the caller's room and hold nothing yet, as for zlib (its window and the
// caller's output are separate buffers); nothing past `avail_out` is written, and the window is never read
// past its end.
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

static inline void store16(unsigned char *to, unsigned value) {
  uint16_t half = (uint16_t)value;
  memcpy(to, &half, 2);
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

void ZLIB_INTERNAL inflate_copy(unsigned char FAR *out, const unsigned char FAR *from, unsigned len) {
  if (from + len <= out || out + len <= from) {  // apart: the window, or a match at least len back
    memcpy(out, from, len);
    return;
  }
  // A match `dist` back, overlapping what it writes: one period, then doubling copies of whole periods.
  unsigned dist = (unsigned)(out - from);
  if (dist == 1) {
    memset(out, from[0], len);
    return;
  }
  memcpy(out, from, dist);
  for (unsigned done = dist; done < len;) {
    unsigned part = done < len - done ? done : len - done;
    memcpy(out + done, out, part);
    done += part;
  }
}

// The part of a match that is in the window (and the rest, from the output), out of the main loop so that
// its variables do not take registers there. Returns the new output position, or NULL when the distance
// reaches past what the window holds. `exact`: write nothing past the match.
__attribute__((noinline)) static unsigned char *copy_from_window(
    const struct inflate_state FAR *state, unsigned char *out, unsigned back, unsigned dist, unsigned len, int exact) {
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
    if (exact) inflate_copy(out, out - dist, len);
    else copy_match(out, dist, len);
    out += len;
  }
  return out;
}

// One literal/length code from `here` on and, after a length, its distance, as the main loop decodes them
// (it has its own copy, laid out for speed). For the end of the output room.
enum symbol { LITERAL, PAIR, BLOCK_END, BAD_LENGTH, BAD_DISTANCE };
static inline enum symbol decode_symbol(code here, const code FAR *lcode, const code FAR *dcode, unsigned dmask,
                                        uint64_t *hold, unsigned *bits, unsigned *value, unsigned *dist) {
  unsigned op;
  for (;;) {
    op = here.bits;
    *hold >>= op;
    *bits -= op;
    op = here.op;
    if (op == 0) {
      *value = here.val;
      return LITERAL;
    }
    if (op & 16) break;
    if (op & 64) return op & 32 ? BLOCK_END : BAD_LENGTH;
    here = lcode[here.val + (*hold & ((1U << op) - 1))];
  }
  unsigned len = here.val;
  op &= 15;
  len += (unsigned)*hold & ((1U << op) - 1);
  *hold >>= op;
  *bits -= op;
  here = dcode[*hold & dmask];
  for (;;) {
    op = here.bits;
    *hold >>= op;
    *bits -= op;
    op = here.op;
    if (op & 16) break;
    if (op & 64) return BAD_DISTANCE;
    here = dcode[here.val + (*hold & ((1U << op) - 1))];
  }
  unsigned d = here.val;
  op &= 15;
  d += (unsigned)*hold & ((1U << op) - 1);
  *hold >>= op;
  *bits -= op;
  *value = len;
  *dist = d;
  return PAIR;
}

// The literal table: for the next LITERAL_BITS bits of input, the literal their first code decodes to and,
// when the code after it is a literal too and both fit in those bits, that one: an entry is the bits both
// take (bits 0–5, the whole entry 0 when the first code is not a literal of the root table), how many
// literals (6–7) and the literals (16–23, 24–31). Most of a PNG's codes are literals (a 1280×800 screenshot: 720,000
// of its 740,000 codes, most of them under 5 bits), which then take one lookup per pair instead of one
// each. Built from lencode when it has changed (a new block's tables: wide_stale).
#define LITERAL_BITS 10u
#define LITERAL_MASK ((1u << LITERAL_BITS) - 1)

static void build_literals(struct inflate_state FAR *state) {
  const code FAR *lcode = state->lencode;
  const unsigned lmask = (1U << state->lenbits) - 1;  // lenbits ≤ LITERAL_BITS
  for (unsigned i = 0; i <= LITERAL_MASK; i++) {
    code first = lcode[i & lmask];
    unsigned entry = 0;
    if (first.op == 0) {
      // The second code's bits are i's bits after the first code: where it is at most that many bits
      // long, the root table gives it whatever the bits past i are.
      code second = lcode[(i >> first.bits) & lmask];
      if (second.op == 0 && first.bits + second.bits <= LITERAL_BITS)
        entry = (first.bits + second.bits) | 2u << 6 | (unsigned)first.val << 16 | (unsigned)second.val << 24;
      else
        entry = first.bits | 1u << 6 | (unsigned)first.val << 16;
    }
    state->wide_literals[i] = entry;
  }
  state->wide_stale = 0;
}

int ZLIB_INTERNAL inflate_fast_wide(z_streamp strm, unsigned start) {
  struct inflate_state FAR *state = (struct inflate_state FAR *)strm->state;
  if (!state->sane || strm->avail_in == 0) return 0;  // (inflate() calls it only when neither holds)
  const unsigned char *in = strm->next_in;
  const unsigned char *in_end = in + strm->avail_in;
  unsigned char *out = strm->next_out;
  unsigned char *out_end = out + strm->avail_out;
  unsigned char *beg = out - (start - strm->avail_out);  // inflate()'s first output byte of this call
  const code FAR *lcode = state->lencode;
  const code FAR *dcode = state->distcode;
  const unsigned lmask = (1U << state->lenbits) - 1, dmask = (1U << state->distbits) - 1;
  if (state->wide_stale) build_literals(state);
  const unsigned FAR *literals = state->wide_literals;
  // The bits above `bits` are the input's next bits (the refill loads 8 bytes and counts the whole ones),
  // so or-ing the next load over them changes nothing; they are cleared on the way out.
  uint64_t hold = state->hold;
  unsigned bits = state->bits;
  int ended = 0;

  while ((size_t)(in_end - in) >= IN_SLACK && (size_t)(out_end - out) >= OUT_SLACK) {
    hold |= load64(in) << bits;
    in += (63 - bits) >> 3;
    bits |= 56;  // 56–63 bits: a literal/length code, its extra bits, a distance code and its extra bits take at most 48
    unsigned entry = literals[hold & LITERAL_MASK];
    if (entry != 0) {
      // Up to five entries a refill (ten literals; an entry's codes take at most LITERAL_BITS of the 56
      // held); a length after them waits for the next. Two bytes are stored for an entry of one literal
      // (room is left): the next overwrites the second.
#define LITERALS_STEP()            \
  hold >>= entry & 63;             \
  bits -= entry & 63;              \
  store16(out, entry >> 16);       \
  out += (entry >> 6) & 3;         \
  entry = literals[hold & LITERAL_MASK];
      LITERALS_STEP();
      if (entry == 0) continue;
      LITERALS_STEP();
      if (entry == 0) continue;
      LITERALS_STEP();
      if (entry == 0) continue;
      LITERALS_STEP();
      if (entry == 0) continue;
      LITERALS_STEP();
      continue;
    }
    code here = lcode[hold & lmask];
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
    unsigned char *after = copy_from_window(state, out, dist - written, dist, len, 0);
    if (after == NULL) {
      strm->msg = (char *)"invalid distance too far back";
      state->mode = BAD;
      ended = 1;
      break;
    }
    out = after;
  }

  // The last of the output room (under 274 bytes), and one code past it, so that inflate()'s own
  // decoding, a byte at a time, is left nothing: the same decoding, with copies that stop at the room's
  // end. There a literal or a match waits in inflate()'s LIT or MATCH state, as its own decoding leaves
  // them when the room runs out (and a MATCH checks its distance when it is copied, as there).
  while (!ended) {
    size_t left_in = (size_t)(in_end - in);
    if (left_in >= IN_SLACK) {
      hold |= load64(in) << bits;
      in += (63 - bits) >> 3;
      bits |= 56;
    } else {  // the input's last bytes, as many as fit (the bits above them are zeros: nothing past it is read)
      size_t take = (63 - bits) >> 3;
      if (take > left_in) take = left_in;
      uint64_t last = 0;
      memcpy(&last, in, take);
      hold |= last << bits;
      in += take;
      bits += (unsigned)take * 8;
    }
    const uint64_t hold_before = hold;
    const unsigned before = bits, room = (unsigned)(out_end - out);
    unsigned value = 0, dist = 0;
    enum symbol symbol = decode_symbol(lcode[hold & lmask], lcode, dcode, dmask, &hold, &bits, &value, &dist);
    if (bits > before) {
      // The code goes on past the input (a prefix code read with zeros past its end is either itself or
      // longer than what is there): nothing is written, and zlib's own code takes it up from here.
      hold = hold_before;
      bits = before;
      break;
    }
    if (symbol == LITERAL && room > 0) {
      *out++ = (unsigned char)value;
      continue;
    }
    ended = 1;
    if (symbol == BLOCK_END) {
      state->mode = TYPE;
      break;
    }
    // inflateMark()'s count of the bits of the code decoded, which inflate()'s own decoding keeps (under
    // 258 bytes of room; zlib's fast loop, above that, does not).
    if (room < 258) state->back = (int)(before - bits);
    if (symbol == LITERAL) {
      state->mode = LIT;
      state->length = value;
      break;
    }
    if (symbol != PAIR) {
      strm->msg = (char *)(symbol == BAD_LENGTH ? "invalid literal/length code" : "invalid distance code");
      state->mode = BAD;
      break;
    }
    unsigned now = value < room ? value : room;
    if (now > 0) {
      unsigned written = (unsigned)(out - beg);
      if (dist <= written) {
        inflate_copy(out, out - dist, now);
        out += now;
      } else {
        unsigned char *after = copy_from_window(state, out, dist - written, dist, now, 1);
        if (after == NULL) {
          strm->msg = (char *)"invalid distance too far back";
          state->mode = BAD;
          break;
        }
        out = after;
      }
    }
    if (now < value) {  // the rest when there is room
      state->mode = MATCH;
      state->length = value - now;
      state->offset = dist;
      state->was = value;
      break;
    }
    ended = 0;
  }

  // Give back the whole bytes not used (bits < 8 after), as zlib's own loop leaves the stream.
  // Only bytes loaded here: bits held on entry (a code zlib's own decoding began) may stay held.
  unsigned unused = bits >> 3;
  if (unused > (unsigned)(in - strm->next_in)) unused = (unsigned)(in - strm->next_in);
  in -= unused;
  bits -= unused << 3;
  hold &= ((uint64_t)1 << bits) - 1;  // bits < 8, or at most what was held on entry (32)
  strm->next_in = (z_const unsigned char *)in;
  strm->avail_in = (uInt)(in_end - in);
  strm->next_out = out;
  strm->avail_out = (uInt)(out_end - out);
  state->hold = (unsigned long)hold;
  state->bits = bits;
  return ended;
}
