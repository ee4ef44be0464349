#!/usr/bin/env bash
# output: packages/media/wasm/tiff.wasm
# decode.c over libtiff 4.5.0, zlib 1.2.13 and libjpeg-turbo 2.1.5, each with Debian's patches: the
# first page of a TIFF as 8-bit RGBA, in bands. Codecs: none, CCITT G3/G4, LZW, PackBits, Deflate,
# JPEG and old-style JPEG, ThunderScan, NeXT, SGI LogLuv (wasm/tiff/tiffconf.h).
source "$(dirname "$0")/../build-lib.sh"
tiff="${LIBTIFF_SRC:-$(source_tree tiff)}"
debian_zlib="${ZLIB_SRC:-$(source_tree zlib)}"
# zlib with png.wasm's wide inflate loop (wasm/zlib/inffast-wide.c through inflate-wide.patch; same output,
# errors and stream positions: wasm/zlib/check.mjs), for Deflate-compressed strips and tiles.
zlib="$WORK/zlib"
cp -r "$debian_zlib" "$zlib"
patch --quiet --directory="$zlib" -p1 < "$ROOT/wasm/zlib/inflate-wide.patch"
jpeg="${LIBJPEG_TURBO_SRC:-$(source_tree libjpeg-turbo)}"
here="$ROOT/wasm/tiff"
sed 's/@COPYRIGHT_YEAR@/1991-2022/' "$jpeg/jversion.h.in" > "$WORK/jversion.h"
# libtiff 4.5.0 steps over the unused part of a partial tile in 16-bit gray images by pixels instead
# of bytes, so every row after the first of such a tile is shifted (tiled 16-bit gray scans come out
# sheared; caught by codecs/tiff.test.ts against ImageMagick). The patched copy skips bytes.
sed '/^DECLAREContigPutFunc(put16bitbwtile)/,/^}/ s/pp += fromskew;/pp += fromskew * 2 * samplesperpixel;/' \
  "$tiff/libtiff/tif_getimage.c" > "$WORK/tif_getimage.c"
grep -q 'pp += fromskew \* 2 \* samplesperpixel;' "$WORK/tif_getimage.c" || { echo "tiff: put16bitbwtile moved; update build.sh" >&2; exit 1; }
library=("$WORK/tif_getimage.c")
for f in aux close codec color compress dir dirinfo dirread dirwrite dumpmode error extension fax3 fax3sm flush \
  hash_set jpeg luv lzw next ojpeg open packbits predict read strip swab thunder tile unix version warning write zip; do
  library+=("$tiff/libtiff/tif_$f.c")
done
for f in crc32 inffast inflate inftrees zutil; do library+=("$zlib/$f.c"); done
# libjpeg-turbo's decoder only (libtiff reads JPEG, never writes it here), as wasm/jpeg builds it.
for f in jcomapi jdapimin jdapistd jdatasrc jdcoefct jdcolor jddctmgr jdhuff jdinput jdmainct jdmarker jdmaster \
  jdmerge jdphuff jdpostct jdsample jerror jidctflt jidctfst jidctint jidctred jquant1 jquant2 jutils jmemmgr \
  jmemnobs jsimd_none jaricom jdarith; do
  library+=("$jpeg/$f.c")
done
# Only reading is used; tif_write and tif_dirwrite are linked because tif_close names them, and
# gc-sections drops what is never reached. tif_unix gives the memory functions; its file functions go
# unused (libtiff reads the file through the host) and are dropped too.
# -Os: at -O2 the bench's 12 MP LZW TIFF → 2000 px job takes 0.15 % fewer instructions (3,974 M against
# 3,980 M; callgrind, node --no-liftoff) and the module is 95 KB larger.
# -ftls-model=local-exec: tif_unix names errno, which wasi-libc declares thread-local.
flags="${WASI_FLAGS[*]} -ftls-model=local-exec -Os -DNDEBUG -DINFLATE_FAST_WIDE -DUSE_CLZ_INTRINSIC -DNO_GETENV -DNO_PUTENV -ffile-prefix-map=$tiff=libtiff
  -ffile-prefix-map=$zlib=zlib -ffile-prefix-map=$jpeg=libjpeg-turbo -I $here -I $WORK -I $ROOT/wasm/jpeg -I $tiff/libtiff -I $zlib -I $ROOT/wasm/zlib -I $jpeg"
compile "$WORK/own" "$flags ${STRICT[*]}" "$here/decode.c" "$here/no-encoders.c" "$ROOT/wasm/zlib/adler32-simd.c" \
  "$ROOT/wasm/zlib/inffast-wide.c"
compile_library "$WORK/lib" "$flags" "${library[@]}"
# --import-memory: the host lends the instance a memory of its pool, shared with the other decoders so
# linked (packages/media/src/runtime/memory-pool.ts), instead of each module keeping its own.
link "$OUT/tiff.wasm" "-Os -Wl,-z,stack-size=262144 -Wl,--import-memory" "$WORK/own" "$WORK/lib"
