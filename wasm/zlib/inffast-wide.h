// wasm/zlib/inffast-wide.c: zlib's fast decoding loop with a 64-bit bit buffer and 16-byte match copies.
#ifndef INFFAST_WIDE_H
#define INFFAST_WIDE_H
#include "zlib.h"

// Decodes as zlib's inflate_fast does while 8 bytes of input and 274 of output room are left. Returns 1
// when the block ended or the data is bad (state->mode is TYPE or BAD), else 0: zlib's own loop goes on.
int ZLIB_INTERNAL inflate_fast_wide(z_streamp strm, unsigned start);

#endif
