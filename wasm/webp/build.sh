#!/usr/bin/env bash
# output: packages/media/wasm/webp-decoder.wasm
# output: packages/media/wasm/webp-encoder.wasm
# Both over libwebp 1.2.4 with Debian's patches (CVE-2023-4863 among them), built for wasm32 without
# libwebp's x86/ARM SIMD.
# decode.c: still-image decoding, optionally rescaled while decoding. VP8 (lossy), VP8L (lossless), alpha
# and the rescaler. vp8l-window.patch: the lossless decoder holds a window of rows instead of the whole
# image (a 4000×3000 image: 5.8 MiB instead of 46 MiB; the patch's header says why that is exact).
# output-window.patch: the decoder writes its output rows into a window of the rows one batch of decoding
# finishes and hands them out batch by batch, instead of into an output-sized buffer (11.4 MiB at
# 2000×1500). vp8l-stream.patch: fed the file a chunk at a time (WebPIAppend), the lossless decoder drops
# the bytes it has read instead of keeping the whole file (9 MiB for the 12 MP bench photo).
# encode.c: the encoder, fed a band of rows at a time; rgba-rows.patch converts each band to YUV 4:2:0 as
# it arrives (a 2000×1500 picture: 4.5 MB of planes instead of 12 MB of RGBA and the planes);
# alpha-in-place.patch encodes the alpha plane without its two copies (15 MB less at 2000×1500).
# encode-simd.c: WASM SIMD versions of the encoder's hottest dsp functions, exact to libwebp's C.
source "$(dirname "$0")/../build-lib.sh"
debian="${LIBWEBP_SRC:-$(source_tree libwebp)}"
src="$WORK/libwebp"
cp -r "$debian" "$src"
patch --quiet --directory="$src" -p1 < "$ROOT/wasm/webp/vp8l-window.patch"
patch --quiet --directory="$src" -p1 < "$ROOT/wasm/webp/output-window.patch"
patch --quiet --directory="$src" -p1 < "$ROOT/wasm/webp/vp8l-stream.patch"
patch --quiet --directory="$src" -p1 < "$ROOT/wasm/webp/rgba-rows.patch"
patch --quiet --directory="$src" -p1 < "$ROOT/wasm/webp/alpha-in-place.patch"
# -Os: as fast as -O2 here (measured) and 40% smaller; NDEBUG drops asserts and with them every import.
flags="${WASI_FLAGS[*]} -Os -DNDEBUG -ffile-prefix-map=$src=libwebp -I $src"

decoder=("$src"/src/dec/*.c)
for f in alpha_processing cpu dec dec_clip_tables filters lossless rescaler upsampling yuv; do decoder+=("$src/src/dsp/$f.c"); done
for f in bit_reader_utils color_cache_utils filters_utils huffman_utils quant_levels_dec_utils random_utils \
  rescaler_utils thread_utils utils; do
  decoder+=("$src/src/utils/$f.c")
done
compile "$WORK/decoder-own" "$flags ${STRICT[*]}" "$ROOT/wasm/webp/decode.c"
compile_library "$WORK/decoder-lib" "$flags" "${decoder[@]}"
# --import-memory (both): the host lends each call a memory of its pool, shared with the JPEG, PNG, TIFF,
# AVIF and HEIF codecs (packages/media/src/runtime/memory-pool.ts).
link "$OUT/webp-decoder.wasm" "-Os -Wl,-z,stack-size=262144 -Wl,--import-memory" "$WORK/decoder-own" "$WORK/decoder-lib"

encoder=("$src"/src/enc/*.c "$src"/sharpyuv/sharpyuv.c "$src"/sharpyuv/sharpyuv_csp.c "$src"/sharpyuv/sharpyuv_dsp.c \
  "$src"/sharpyuv/sharpyuv_gamma.c)
for f in alpha_processing cost cpu dec dec_clip_tables enc filters lossless lossless_enc rescaler ssim upsampling yuv; do encoder+=("$src/src/dsp/$f.c"); done
for f in bit_reader_utils bit_writer_utils color_cache_utils filters_utils huffman_encode_utils huffman_utils \
  quant_levels_utils random_utils rescaler_utils thread_utils utils; do
  encoder+=("$src/src/utils/$f.c")
done
# The encoder at -O2: 12 % less CPU than -Os on a 2000×1500 photo (median of 15 alternating runs), for
# 90 KB more WASM.
compile "$WORK/encoder-own" "${flags/-Os/-O2} ${STRICT[*]}" "$ROOT/wasm/webp/encode.c" "$ROOT/wasm/webp/encode-simd.c"
compile_library "$WORK/encoder-lib" "${flags/-Os/-O2}" "${encoder[@]}"
link "$OUT/webp-encoder.wasm" "-Os -Wl,-z,stack-size=262144 -Wl,--import-memory" "$WORK/encoder-own" "$WORK/encoder-lib"
