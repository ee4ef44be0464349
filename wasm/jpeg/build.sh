#!/usr/bin/env bash
# output: packages/media/wasm/jpeg.wasm
# codec.c over libjpeg-turbo 2.1.5 (Debian's source package, patched): scaled (DCT-domain) decoding,
# arithmetic decoding, baseline encoding, with libjpeg-turbo's own Arm Neon kernels on WASM SIMD128.
#
# SIMD: simd/jsimd.c says which kernels exist (colour conversion, chroma resampling, the accurate integer
# DCTs and quantisation, Huffman encoding); they are libjpeg-turbo's simd/arm/*-neon.c compiled against
# wasm/neon/arm_neon.h, and neon-on-wasm32.patch gives wasm32 64-bit Huffman bit buffers and the AArch64
# code paths. simd/huff-gather.c is glimpse's SIMD128 version of the Huffman-optimisation statistics pass,
# which libjpeg-turbo has no SIMD for (the patch has htest_one_block call it first): 75 → 34 M instructions
# a job. Every decoded row and every encoded byte is the same as the plain-C build's (compared at
# every scale 1/8–8/8 and two qualities over libjpeg-turbo's test images, cjpeg's 4:4:4/4:2:2/4:4:0/4:2:0/
# 4:1:1/gray/progressive/restart/arithmetic encodings of them, odd sizes from 1×1, CMYK, the test vectors
# and the bench photo), so the shared vectors keep their hashes. Measured on the bench's 12 MP JPEG →
# 2000 px JPEG job (callgrind, node --no-liftoff, instructions of one job): plain C 1,384 M, the Neon
# kernels 873 M, with the statistics pass 843 M (−39 %); CPU per job 92 → 72 ms with the Neon kernels
# (alternating in one process, load 3–5). Built through SIMDe
# instead (Debian's libsimde-dev 0.7.4) the same kernels made the job 3.6× slower than plain C: see
# wasm/neon/arm_neon.h.
# Optimisation: the library at -Os, the Neon kernels at -O2. The library at -O2 runs the job in the same
# instructions (887 M against 888 M) and is 51 KB larger, which costs 95 M instructions more to compile;
# the kernels at -O2 take 3.5 % fewer instructions than at -Os, and -O3 no fewer than -O2 (884 M with the
# library at -O3 too, 488 KB). -flto: 0.7 % fewer instructions, 14 KB smaller; not taken.
# USE_CLZ_INTRINSIC replaces a 64 KB table with wasm's i32.clz; NO_GETENV/NO_PUTENV keep the environment
# imports out. huff-gather.c at -O2 (843 M against 853 M at -Os).
source "$(dirname "$0")/../build-lib.sh"
debian="${LIBJPEG_TURBO_SRC:-$(source_tree libjpeg-turbo)}"
src="$WORK/libjpeg-turbo"
cp -r "$debian" "$src"
patch --quiet --directory="$src" -p1 < "$ROOT/wasm/jpeg/neon-on-wasm32.patch"
sed 's/@COPYRIGHT_YEAR@/1991-2022/' "$src/jversion.h.in" > "$WORK/jversion.h"
library=()
for f in jcapimin jcapistd jccoefct jccolor jcdctmgr jchuff jcicc jcinit jcmainct jcmarker jcmaster jcomapi \
  jcparam jcphuff jcprepct jcsample jdapimin jdapistd jdatadst jdatasrc jdcoefct jdcolor jddctmgr jdhuff jdicc \
  jdinput jdmainct jdmarker jdmaster jdmerge jdphuff jdpostct jdsample jerror jfdctflt jfdctfst jfdctint \
  jidctflt jidctfst jidctint jidctred jquant1 jquant2 jutils jmemmgr jmemnobs jaricom jdarith; do
  library+=("$src/$f.c")
done
neon=()
for f in jccolor jcsample jdcolor jdsample jfdctint jidctint jidctred jquanti aarch64/jchuff; do
  neon+=("$src/simd/arm/$f-neon.c")
done
# WITH_SIMD: 16-bit DCT elements and multipliers, which the kernels are written for.
flags="${WASI_FLAGS[*]} -Os -DWITH_SIMD -DNEON_INTRINSICS -DGLIMPSE_HUFF_GATHER -DUSE_CLZ_INTRINSIC -DNO_GETENV -DNO_PUTENV
  -ffile-prefix-map=$src=libjpeg-turbo -I $ROOT/wasm/jpeg -I $WORK -I $src"
neon_flags="${flags/-Os/-O2} -I $ROOT/wasm/jpeg/simd -I $ROOT/wasm/neon -Werror=implicit-function-declaration"
compile "$WORK/own" "$flags ${STRICT[*]}" "$ROOT/wasm/jpeg/codec.c" "$ROOT/wasm/jpeg/simd/jsimd.c"
compile "$WORK/own-simd" "${flags/-Os/-O2} ${STRICT[*]}" "$ROOT/wasm/jpeg/simd/huff-gather.c"
compile_library "$WORK/lib" "$flags" "${library[@]}"
compile_library "$WORK/neon" "$neon_flags" "${neon[@]}"
# --import-memory: the host lends the instance a memory of its pool, shared with the HEIF, AVIF, TIFF
# decoders and the WebP encoder (packages/media/src/runtime/memory-pool.ts).
link "$OUT/jpeg.wasm" "-Os -Wl,-z,stack-size=262144 -Wl,--import-memory" "$WORK/own" "$WORK/own-simd" "$WORK/lib" "$WORK/neon"
