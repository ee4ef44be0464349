#!/usr/bin/env bash
# Builds glimpse's own WASM modules from wasm/ into packages/media/wasm/ (committed, so installs need no
# toolchain):
#   resize.wasm  wasm/resize/resize.c: SIMD separable resampling kernel, no libc.
#   jpeg.wasm    wasm/jpeg/codec.c over libjpeg-turbo 2.1.5 (Debian's source package, fetched here, never
#                committed): scaled (DCT-domain) decoding and baseline encoding.
# Toolchain (Debian): apt-get install -y clang lld wasi-libc libclang-rt-14-dev-wasm32
# Source: `apt-get source libjpeg-turbo` needs a deb-src entry; or point LIBJPEG_TURBO_SRC at an unpacked
# libjpeg-turbo-2.1.5 tree. Every flag that affects the output is pinned, so the same compiler version
# reproduces the committed bytes (scripts/check-wasm.sh compares them).
# Usage: scripts/build-wasm.sh [output-dir] [resize|jpeg ...]
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"
OUT="${1:-packages/media/wasm}"
shift || true
if [ "$#" -gt 0 ]; then TARGETS=("$@"); else TARGETS=(resize jpeg); fi
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

# The library files the codec needs: libjpeg-turbo's own list minus arithmetic coding (never produced by
# cameras or browsers) and the x86/ARM SIMD (jsimd_none.c stands in).
LIBJPEG_FILES="jcapimin.c jcapistd.c jccoefct.c jccolor.c jcdctmgr.c jchuff.c jcicc.c jcinit.c jcmainct.c
  jcmarker.c jcmaster.c jcomapi.c jcparam.c jcphuff.c jcprepct.c jcsample.c jdapimin.c jdapistd.c
  jdatadst.c jdatasrc.c jdcoefct.c jdcolor.c jddctmgr.c jdhuff.c jdicc.c jdinput.c jdmainct.c jdmarker.c
  jdmaster.c jdmerge.c jdphuff.c jdpostct.c jdsample.c jerror.c jfdctflt.c jfdctfst.c jfdctint.c
  jidctflt.c jidctfst.c jidctint.c jidctred.c jquant1.c jquant2.c jutils.c jmemmgr.c jmemnobs.c jsimd_none.c"

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

for target in "${TARGETS[@]}"; do
  case "$target" in
    resize) build_resize ;;
    jpeg) build_jpeg ;;
    *) echo "unknown target $target (resize, jpeg)" >&2; exit 2 ;;
  esac
done
