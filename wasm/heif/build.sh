#!/usr/bin/env bash
# output: packages/heif/wasm/heif.wasm
# decode.cc over libheif 1.15.1 and libde265 1.0.11 with Debian's patches: HEIC/HEIF still images,
# decoded one coded item (the primary image or one grid tile) at a time. LGPL-3.0 (libheif) and
# LGPL-3.0 (libde265): this module ships only in the optional @glimpse/heif package.
source "$(dirname "$0")/../build-lib.sh"
heif="${LIBHEIF_SRC:-$(source_tree libheif)}"
de265="${LIBDE265_SRC:-$(source_tree libde265)}"
here="$ROOT/wasm/heif"

# libheif's libde265 plugin starts one worker thread; wasm32-wasi has none, and libde265 would wait
# forever for it. The plugin decodes on the calling thread without that one call.
sed 's@^\( *\)de265_start_worker_threads(decoder->ctx, 1);@\1/* glimpse: no worker threads */@' \
  "$heif/libheif/plugins/heif_decoder_libde265.cc" > "$WORK/heif_decoder_libde265.cc"
grep -q 'glimpse: no worker threads' "$WORK/heif_decoder_libde265.cc" || { echo "heif: the worker-thread call moved; update build.sh" >&2; exit 1; }

# libheif converts each decoded item to planar RGB, a second whole copy of it, in a generic per-pixel
# loop that took 9 % of a decode. decode.cc converts the rows it hands out itself, with the same
# arithmetic, so an item it asks for with no colour space stays as coded (YCbCr or gray); libheif's
# own grid path (a grid with alpha) still asks for RGB tiles.
sed 's@^      if (different_chroma || different_colorspace) {@      if ((different_chroma || different_colorspace) \&\& out_colorspace != heif_colorspace_undefined) { /* glimpse: decode.cc converts rows to RGB */@' \
  "$heif/libheif/heif_context.cc" > "$WORK/heif_context.cc"
grep -q 'glimpse: decode.cc converts rows' "$WORK/heif_context.cc" || { echo "heif: the colour conversion moved; update build.sh" >&2; exit 1; }

# libde265 allocates a picture of the size its SPS declares (up to 65535×65535); the host checked its
# pixel budget against the container's. decode.cc's glimpse_picture_fits refuses a larger SPS first.
sed -e '1i extern "C" bool glimpse_picture_fits(int width, int height);' \
  -e 's@^  if (pic_width_in_luma_samples > MAX_PICTURE_WIDTH ||@  if (!glimpse_picture_fits(pic_width_in_luma_samples, pic_height_in_luma_samples) || pic_width_in_luma_samples > MAX_PICTURE_WIDTH ||@' \
  "$de265/libde265/sps.cc" > "$WORK/sps.cc"
grep -q 'glimpse_picture_fits(pic_width' "$WORK/sps.cc" || { echo "heif: libde265's SPS size check moved; update build.sh" >&2; exit 1; }

heif_library=()
for f in bitstream box common_utils error exif heif heif_avif heif_colorconversion heif_file heif_hevc \
  heif_image heif_plugin heif_plugin_registry metadata_compression nclx; do
  heif_library+=("$heif/libheif/$f.cc")
done
heif_library+=("$WORK/heif_context.cc" "$WORK/heif_decoder_libde265.cc")
de265_library=()
for f in alloc_pool bitstream configparam contextmodel de265 decctx dpb fallback fallback-dct \
  fallback-motion image md5 motion nal nal-parser pps quality refpic scan sei threads \
  util vps vui; do
  de265_library+=("$de265/libde265/$f.cc")
done
de265_library+=("$WORK/sps.cc")
# decode.cc's SAO over the pictures it takes, a band of rows at a time (libde265's sao.cc, compiled again).
de265_library+=("$here/sao-rows.cc")
# The decoder's hot code at -O3 (the rest of both libraries stays at -O2, for size): the CABAC decoder
# (cabac.cc) and the syntax it decodes (slice.cc: residual_coding and the rest) as one translation unit, so
# decode_CABAC_bit and the bypass reads inline into their callers instead of being a call across files per
# bin; intra prediction, the dequantisation (transform.cc), deblocking and SAO.
printf '#include "libde265/cabac.cc"\n#include "libde265/slice.cc"\n' > "$WORK/cabac-slice.cc"
de265_hot=("$WORK/cabac-slice.cc")
for f in deblock intrapred sao transform; do de265_hot+=("$de265/libde265/$f.cc"); done

# libde265's SSE2/SSE4.1 inverse transforms (x86/sse-dct.cc, upstream's own code) built for SIMD128: the
# x86 intrinsics come from SIMDe's headers (Debian's libsimde-dev, a toolchain package like clang) through
# the stand-in <emmintrin.h>, <tmmintrin.h> and <smmintrin.h> in sse/; sse/acceleration.cc registers them
# (HAVE_SSE4_1 makes decctx.cc call it). A folder holding only simde/ keeps /usr/include's other headers
# out of reach of the wasi sysroot's.
simde=/usr/include/simde
[ -f "$simde/x86/sse4.1.h" ] || { echo "heif: SIMDe's headers are missing: apt-get install -y libsimde-dev (scripts/install-wasm-toolchain.sh)" >&2; exit 1; }
mkdir -p "$WORK/simde-include"
ln -s "$simde" "$WORK/simde-include/simde"
de265_sse=("$de265/libde265/x86/sse-dct.cc" "$here/sse/acceleration.cc")

cxx="${WASI_FLAGS[*]} -include $here/no-threads.h -ftls-model=local-exec -std=c++14 -O2 -DNDEBUG -ffile-prefix-map=$heif=libheif -ffile-prefix-map=$de265=libde265"
# Plugin loading (dlopen) and parallel tile decoding (threads) are off: neither exists in wasm32-wasi.
heif_flags="$cxx -DHAVE_LIBDE265=1 -DENABLE_PLUGIN_LOADING=0 -DENABLE_PARALLEL_TILE_DECODING=0 -DLIBHEIF_STATIC_BUILD -I $heif -I $heif/libheif -I $heif/libheif/plugins -I $de265"
# _WASI_EMULATED_SIGNAL: two files include <signal.h> and call nothing from it.
de265_flags="$cxx -DHAVE_CONFIG_H -DHAVE_SSE4_1=1 -D_WASI_EMULATED_SIGNAL -I $here -I $de265 -I $de265/libde265"
compile "$WORK/own" "$heif_flags ${STRICT[*]}" "$here/decode.cc"
compile_library "$WORK/heif" "$heif_flags" "${heif_library[@]}"
compile_library "$WORK/de265" "$de265_flags" "${de265_library[@]}"
compile_library "$WORK/de265-hot" "${de265_flags/-O2/-O3}" "${de265_hot[@]}"
compile_library "$WORK/de265-sse" "$de265_flags -I $here/sse -isystem $WORK/simde-include" "${de265_sse[@]}"
# --import-memory: the host lends the instance a memory of its pool, shared with the other decoders so
# linked (packages/media/src/runtime/memory-pool.ts), instead of each module keeping its own.
link "$OUT/heif.wasm" "-O2 -Wl,-z,stack-size=1048576 -Wl,--import-memory -lc++ -lc++abi" "$WORK/own" "$WORK/heif" "$WORK/de265" "$WORK/de265-hot" "$WORK/de265-sse"
