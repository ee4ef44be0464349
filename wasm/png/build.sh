#!/usr/bin/env bash
# output: packages/media/wasm/png.wasm
# codec.c over libpng 1.6.39 and zlib 1.2.13 with Debian's patches: decoding of every PNG kind to RGBA8
# (libpng's reader), RGB/RGBA encoding (codec.c's own filtering over zlib).
source "$(dirname "$0")/../build-lib.sh"
debian_png="${LIBPNG_SRC:-$(source_tree libpng1.6)}"
png="$WORK/libpng"
cp -r "$debian_png" "$png"
patch --quiet --directory="$png" -p1 < "$ROOT/wasm/png/neon-halves.patch"
debian_zlib="${ZLIB_SRC:-$(source_tree zlib)}"
zlib="$WORK/zlib"
cp -r "$debian_zlib" "$zlib"
# wasm/zlib/inffast-wide.c: zlib's fast inflate loop with a 64-bit bit buffer and 16-byte match copies,
# which inflate() calls in place of inflate_fast, at any output room (wasm/zlib/inflate-wide.patch; same
# output, errors and stream positions: wasm/zlib/check.mjs). The strict read of a 366 KB screenshot spent
# 40 of its 52 M instructions in zlib's byte-at-a-time loop.
patch --quiet --directory="$zlib" -p1 < "$ROOT/wasm/zlib/inflate-wide.patch"
# libpng in its stock configuration minus what a wasm32 reactor cannot or need not have: setjmp (errors
# unwind through the host's `fail` instead), stdio and console output, and the simplified API.
sed -E 's@^#define (PNG_(SETJMP|STDIO|CONSOLE_IO|SIMPLIFIED_[A-Z_]+)_SUPPORTED)$@/* glimpse: no \1 */@' \
  "$png/scripts/pnglibconf.h.prebuilt" > "$WORK/pnglibconf.h"
library=()
for f in png pngerror pngget pngmem pngpread pngread pngrio pngrtran pngrutil pngset pngtrans; do library+=("$png/$f.c"); done
# libpng's Arm Neon code compiled against wasm/neon/arm_neon.h: the filters (arm/filter_neon_intrinsics.c:
# Up, and Sub, Average, Paeth for 3- and 4-byte pixels), installed by arm_init.c with no run-time check
# (every runtime glimpse supports runs SIMD128), and the palette expansion (palette_neon_intrinsics.c).
library+=("$png/arm/arm_init.c" "$png/arm/filter_neon_intrinsics.c" "$png/arm/palette_neon_intrinsics.c")
for f in crc32 deflate inffast inflate inftrees trees zutil; do library+=("$zlib/$f.c"); done
# -O2: encoding at -Os took 1.5x as long (measured).
flags="${WASI_FLAGS[*]} -O2 -DNDEBUG -DINFLATE_FAST_WIDE -DPNG_ARM_NEON_OPT=2 -DPNG_ARM_NEON_IMPLEMENTATION=1 -ffile-prefix-map=$png=libpng
  -ffile-prefix-map=$zlib=zlib -I $WORK -I $png -I $zlib -I $ROOT/wasm/zlib -I $ROOT/wasm/neon"
# wasm/zlib/adler32-simd.c: zlib's Adler-32 in SIMD128 (same checksums), in place of zlib's adler32.c.
compile "$WORK/own" "$flags ${STRICT[*]}" "$ROOT/wasm/png/codec.c" "$ROOT/wasm/zlib/adler32-simd.c" "$ROOT/wasm/zlib/inffast-wide.c"
compile_library "$WORK/lib" "$flags" "${library[@]}"
# --import-memory: the host lends each call a memory of its pool, shared with the JPEG, TIFF, AVIF, HEIF and
# WebP codecs (packages/media/src/runtime/memory-pool.ts).
link "$OUT/png.wasm" "-O2 -Wl,-z,stack-size=262144 -Wl,--import-memory" "$WORK/own" "$WORK/lib"
