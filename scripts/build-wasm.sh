#!/usr/bin/env bash
# Builds glimpse's own WASM modules from wasm/ into packages/media/wasm/ (committed, so installs need no
# toolchain):
#   resize.wasm  wasm/resize/resize.c: SIMD separable resampling kernel, no libc.
#   jpeg.wasm    wasm/jpeg/codec.c over libjpeg-turbo 2.1.5 (Debian's source package, fetched here, never
#                committed): scaled (DCT-domain) decoding and baseline encoding.
#   webp-decoder.wasm  wasm/webp/decode.c over libwebp 1.2.4 with Debian's patches (incl. CVE-2023-4863):
#                still-image decoding, optionally rescaled while decoding.
#   png.wasm     wasm/png/codec.c over libpng 1.6.39 and zlib 1.2.13 with Debian's patches: decoding of
#                every PNG kind to RGBA8 (libpng), RGB/RGBA encoding (own filtering over zlib).
# Toolchain (Debian): apt-get install -y clang lld wasi-libc libclang-rt-14-dev-wasm32 dpkg-dev
# Sources: `apt-get source` needs a deb-src entry for bookworm; or point LIBJPEG_TURBO_SRC / LIBWEBP_SRC /
# LIBPNG_SRC / ZLIB_SRC at unpacked (and, for libwebp and libpng, patched) trees. Every flag that affects the output is pinned, so the same
# compiler version reproduces the committed bytes (scripts/check-wasm.sh compares them).
# Usage: scripts/build-wasm.sh [output-dir] [resize|jpeg|webp|png ...]
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"
OUT="${1:-packages/media/wasm}"
shift || true
if [ "$#" -gt 0 ]; then TARGETS=("$@"); else TARGETS=(resize jpeg webp png); fi
CLANG="${CLANG:-clang}"
mkdir -p "$OUT"

build_resize() {
  "$CLANG" --target=wasm32 -O3 -msimd128 -mbulk-memory -nostdlib -ffreestanding \
    -fno-ident -ffile-prefix-map="$ROOT"=. \
    -Wall -Wextra -Werror \
    -Wl,--no-entry -Wl,--strip-all -Wl,-z,stack-size=65536 -Wl,--initial-memory=131072 \
    -o "$OUT/resize.wasm" wasm/resize/resize.c
  echo "built $OUT/resize.wasm ($(wc -c < "$OUT/resize.wasm") bytes)"
}

LIBJPEG_VERSION=2.1.5
LIBJPEG_TARBALL="libjpeg-turbo_${LIBJPEG_VERSION}.orig.tar.gz"
LIBJPEG_SHA256=254f3642b04e309fee775123133c6464181addc150499561020312ec61c1bf7c

# Prints the path of an unpacked libjpeg-turbo 2.1.5 tree, fetching Debian's source package if needed.
libjpeg_source() {
  if [ -n "${LIBJPEG_TURBO_SRC:-}" ]; then echo "$LIBJPEG_TURBO_SRC"; return; fi
  local cache="${GLIMPSE_WASM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/glimpse-wasm}"
  local tree="$cache/libjpeg-turbo-$LIBJPEG_VERSION"
  if [ ! -f "$tree/jpeglib.h" ]; then
    mkdir -p "$cache"
    if [ ! -f "$cache/$LIBJPEG_TARBALL" ]; then
      (cd "$cache" && apt-get source --download-only "libjpeg-turbo=1:$LIBJPEG_VERSION-2" >&2) || {
        echo "cannot fetch libjpeg-turbo $LIBJPEG_VERSION: add a deb-src line for Debian bookworm, or set LIBJPEG_TURBO_SRC" >&2
        return 1
      }
    fi
    echo "$LIBJPEG_SHA256  $cache/$LIBJPEG_TARBALL" | sha256sum -c --quiet >&2
    tar -xzf "$cache/$LIBJPEG_TARBALL" -C "$cache"
  fi
  echo "$tree"
}

# The library files the codec needs: libjpeg-turbo's own list with arithmetic decoding but not encoding,
# and without the x86/ARM SIMD (jsimd_none.c stands in).
LIBJPEG_FILES="jcapimin.c jcapistd.c jccoefct.c jccolor.c jcdctmgr.c jchuff.c jcicc.c jcinit.c jcmainct.c
  jcmarker.c jcmaster.c jcomapi.c jcparam.c jcphuff.c jcprepct.c jcsample.c jdapimin.c jdapistd.c
  jdatadst.c jdatasrc.c jdcoefct.c jdcolor.c jddctmgr.c jdhuff.c jdicc.c jdinput.c jdmainct.c jdmarker.c
  jdmaster.c jdmerge.c jdphuff.c jdpostct.c jdsample.c jerror.c jfdctflt.c jfdctfst.c jfdctint.c
  jidctflt.c jidctfst.c jidctint.c jidctred.c jquant1.c jquant2.c jutils.c jmemmgr.c jmemnobs.c jsimd_none.c
  jaricom.c jdarith.c"

build_jpeg() {
  local src gen files=()
  src="$(libjpeg_source)"
  gen="$(mktemp -d)"
  trap 'rm -rf "$gen"' RETURN
  sed 's/@COPYRIGHT_YEAR@/1991-2022/' "$src/jversion.h.in" > "$gen/jversion.h"
  for f in $LIBJPEG_FILES; do files+=("$src/$f"); done
  # -Os: as fast as -O2 here (measured) and 20% smaller. USE_CLZ_INTRINSIC replaces a 64 KB table
  # with wasm's i32.clz; NO_GETENV/NO_PUTENV keep the environment imports out.
  "$CLANG" --target=wasm32-wasi -Os -msimd128 -mbulk-memory -mexec-model=reactor \
    -fno-ident -ffile-prefix-map="$src"=libjpeg-turbo -ffile-prefix-map="$ROOT"=. -ffile-prefix-map="$gen"=gen \
    -DUSE_CLZ_INTRINSIC -DNO_GETENV -DNO_PUTENV -w \
    -I wasm/jpeg -I "$gen" -I "$src" \
    -Wl,--no-entry -Wl,--strip-all -Wl,--gc-sections -Wl,-z,stack-size=262144 \
    -o "$OUT/jpeg.wasm" wasm/jpeg/codec.c "${files[@]}"
  echo "built $OUT/jpeg.wasm ($(wc -c < "$OUT/jpeg.wasm") bytes)"
}

LIBWEBP_VERSION=1.2.4
LIBWEBP_DEBIAN_VERSION=1.2.4-0.2+deb12u1
LIBWEBP_SHA256="7bf5a8a28cc69bcfa8cb214f2c3095703c6b73ac5fba4d5480c205331d9494df  libwebp_1.2.4.orig.tar.gz
69cdba4dfe2e1b34d55fa80c1b29c31cacd40dd183812d6bcca7e508a2f7afcd  libwebp_1.2.4-0.2+deb12u1.debian.tar.xz"

build_webp() {
  local src files=()
  src="${LIBWEBP_SRC:-$(debian_source libwebp "$LIBWEBP_DEBIAN_VERSION" "$LIBWEBP_DEBIAN_VERSION" "$LIBWEBP_SHA256" src/webp/decode.h)}"
  # The still-image decoder and what it reaches: VP8 (lossy), VP8L (lossless), alpha, the rescaler.
  for f in "$src"/src/dec/*.c; do files+=("$f"); done
  for f in alpha_processing cpu dec dec_clip_tables filters lossless rescaler upsampling yuv; do files+=("$src/src/dsp/$f.c"); done
  for f in bit_reader_utils color_cache_utils filters_utils huffman_utils quant_levels_dec_utils random_utils rescaler_utils thread_utils utils; do
    files+=("$src/src/utils/$f.c")
  done
  # -Os: as fast as -O2 here (measured) and 40% smaller; NDEBUG drops asserts and with them every import.
  "$CLANG" --target=wasm32-wasi -Os -DNDEBUG -msimd128 -mbulk-memory -mexec-model=reactor \
    -fno-ident -ffile-prefix-map="$src"=libwebp -ffile-prefix-map="$ROOT"=. -w \
    -I "$src" \
    -Wl,--no-entry -Wl,--strip-all -Wl,--gc-sections -Wl,-z,stack-size=262144 \
    -o "$OUT/webp-decoder.wasm" wasm/webp/decode.c "${files[@]}"
  echo "built $OUT/webp-decoder.wasm ($(wc -c < "$OUT/webp-decoder.wasm") bytes)"
}

LIBPNG_DEBIAN_VERSION=1.6.39-2+deb12u5
LIBPNG_SHA256="7b86211030a34deb6b0a2cd7e1d9db0fe92443fd30cab537fb89b1e7f7c9f188  libpng1.6_1.6.39-2+deb12u5.dsc
a00e9d2f2f664186e4202db9299397f851aea71b36a35e74910b8820e380d441  libpng1.6_1.6.39.orig.tar.gz
ab14906eda9fddf14cbb1e589b9ba7439c22e233dc3c5e3cf9356c9625565a82  libpng1.6_1.6.39-2+deb12u5.debian.tar.xz"
ZLIB_DEBIAN_VERSION=1.2.13.dfsg-1
ZLIB_SHA256="3fa1e6b2fc525062aa88207dda52fed8e045373c809d362fe8a2bfbf7cf515a8  zlib_1.2.13.dfsg-1.dsc
71feb7947e3c00ef125f83b79a4e529bde31171e5babe48b391f06758d1ab0a1  zlib_1.2.13.dfsg.orig.tar.bz2
f66cf3d4f2d7defcd4d1fd1fb0a11ee39f1e01b42ec7d059c9dc5c1695133c44  zlib_1.2.13.dfsg-1.debian.tar.xz"

# Prints the path of a Debian source package's tree with its patches applied, fetching it if needed.
# Arguments: source package, Debian version (with epoch), version without epoch, SHA-256 lines, a file
# that exists in the unpacked tree.
debian_source() {
  local package="$1" version="$2" plain="$3" sums="$4" marker="$5"
  local cache="${GLIMPSE_WASM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/glimpse-wasm}"
  local tree="$cache/$package-$plain"
  if [ ! -f "$tree/$marker" ]; then
    mkdir -p "$cache"
    command -v dpkg-source >/dev/null || { echo "cannot fetch $package: dpkg-source (dpkg-dev) is needed to apply Debian's patches" >&2; return 1; }
    (cd "$cache" && apt-get source --download-only "$package=$version" >&2) || {
      echo "cannot fetch $package $version: add a deb-src line for Debian bookworm, or point the build at a tree" >&2
      return 1
    }
    (cd "$cache" && echo "$sums" | sha256sum -c --quiet >&2)
    rm -rf "$tree"
    (cd "$cache" && dpkg-source --no-check -x "${package}_$plain.dsc" "$tree" >&2)
  fi
  echo "$tree"
}

build_png() {
  local png zlib gen files=()
  png="${LIBPNG_SRC:-$(debian_source libpng1.6 "$LIBPNG_DEBIAN_VERSION" "$LIBPNG_DEBIAN_VERSION" "$LIBPNG_SHA256" png.h)}"
  zlib="${ZLIB_SRC:-$(debian_source zlib "1:$ZLIB_DEBIAN_VERSION" "$ZLIB_DEBIAN_VERSION" "$ZLIB_SHA256" zlib.h)}"
  gen="$(mktemp -d)"
  trap 'rm -rf "$gen"' RETURN
  # libpng (its reader only; codec.c writes PNGs over zlib itself) in its stock configuration minus what
  # a wasm32 reactor cannot or need not have: setjmp (errors unwind through the host's `fail` instead),
  # stdio and console output, and the simplified API. -O2: encoding at -Os took 1.5x as long (measured).
  sed -E 's@^#define (PNG_(SETJMP|STDIO|CONSOLE_IO|SIMPLIFIED_[A-Z_]+)_SUPPORTED)$@/* glimpse: no \1 */@' \
    "$png/scripts/pnglibconf.h.prebuilt" > "$gen/pnglibconf.h"
  for f in png pngerror pngget pngmem pngpread pngread pngrio pngrtran pngrutil pngset pngtrans; do
    files+=("$png/$f.c")
  done
  for f in adler32 crc32 deflate inffast inflate inftrees trees zutil; do files+=("$zlib/$f.c"); done
  "$CLANG" --target=wasm32-wasi -O2 -DNDEBUG -msimd128 -mbulk-memory -mexec-model=reactor \
    -fno-ident -ffile-prefix-map="$png"=libpng -ffile-prefix-map="$zlib"=zlib -ffile-prefix-map="$ROOT"=. \
    -ffile-prefix-map="$gen"=gen -w \
    -I "$gen" -I "$png" -I "$zlib" \
    -Wl,--no-entry -Wl,--strip-all -Wl,--gc-sections -Wl,-z,stack-size=262144 \
    -o "$OUT/png.wasm" wasm/png/codec.c "${files[@]}"
  echo "built $OUT/png.wasm ($(wc -c < "$OUT/png.wasm") bytes)"
}

for target in "${TARGETS[@]}"; do
  case "$target" in
    resize) build_resize ;;
    jpeg) build_jpeg ;;
    webp) build_webp ;;
    png) build_png ;;
    *) echo "unknown target $target (resize, jpeg, webp, png)" >&2; exit 2 ;;
  esac
done
