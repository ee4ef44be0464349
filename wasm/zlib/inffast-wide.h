// wasm/zlib/inffast-wide.c: zlib's fast decoding loop with a 64-bit bit buffer and 16-byte match copies.
#ifndef INFFAST_WIDE_H
#define INFFAST_WIDE_H
#include "zlib.h"

// Decodes as zlib's inflate_fast and inflate() do while 8 bytes of input are left, up to the end of the
// output room and one code past it. Returns 1 when it leaves state->mode other than LEN (TYPE at a
// block's end, BAD, or LIT or MATCH for the code past the room), else 0: zlib's own code goes on.
// inflate() calls it only with 8 bytes of input and state->sane; it then decodes at least one code.
int ZLIB_INTERNAL inflate_fast_wide(z_streamp strm, unsigned start);

// Copies a match of `len` bytes from `from` (the window, or `out - from` bytes back in the output, which it
// may overlap as LZ77 means it to) to `out`, exactly: inflate()'s MATCH state, in place of a byte loop.
void ZLIB_INTERNAL inflate_copy(unsigned char FAR *out, const unsigned char FAR *from, unsigned len);

#endif
