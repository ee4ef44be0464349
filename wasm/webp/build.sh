#!/usr/bin/env bash
# output: packages/media/wasm/webp-decoder.wasm
# decode.c over libwebp 1.2.4 with Debian's patches (CVE-2023-4863 among them): still-image decoding,
# optionally rescaled while decoding. VP8 (lossy), VP8L (lossless), alpha and the rescaler.
# vp8l-window.patch: the lossless decoder holds a window of rows instead of the whole image (a 4000×3000
# image: 5.8 MiB instead of 46 MiB; the patch's header says why that is exact).
source "$(dirname "$0")/../build-lib.sh"
debian="${LIBWEBP_SRC:-$(source_tree libwebp)}"
src="$WORK/libwebp"
cp -r "$debian" "$src"
patch --quiet --directory="$src" -p1 < "$ROOT/wasm/webp/vp8l-window.patch"
library=("$src"/src/dec/*.c)
for f in alpha_processing cpu dec dec_clip_tables filters lossless rescaler upsampling yuv; do library+=("$src/src/dsp/$f.c"); done
for f in bit_reader_utils color_cache_utils filters_utils huffman_utils quant_levels_dec_utils random_utils \
  rescaler_utils thread_utils utils; do
  library+=("$src/src/utils/$f.c")
done
# -Os: as fast as -O2 here (measured) and 40% smaller; NDEBUG drops asserts and with them every import.
flags="${WASI_FLAGS[*]} -Os -DNDEBUG -ffile-prefix-map=$src=libwebp -I $src"
compile "$WORK/own" "$flags ${STRICT[*]}" "$ROOT/wasm/webp/decode.c"
compile_library "$WORK/lib" "$flags" "${library[@]}"
link "$OUT/webp-decoder.wasm" "-Os -Wl,-z,stack-size=262144" "$WORK/own" "$WORK/lib"
