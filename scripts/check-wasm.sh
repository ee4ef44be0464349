#!/usr/bin/env bash
# CI check: rebuilds every WASM module from its pinned sources and fails unless each committed binary
# matches its rebuild byte for byte. A missing toolchain or source is a failure, not a skip: a check
# that compares nothing proves nothing. (.ci/run installs the toolchain.)
set -euo pipefail
cd "$(dirname "$0")/.."
CLANG="${CLANG:-clang}"
need="apt-get install -y clang lld wasi-libc libclang-rt-14-dev-wasm32 libc++-14-dev-wasm32 libc++abi-14-dev-wasm32 libsimde-dev dpkg-dev curl"
if ! command -v "$CLANG" >/dev/null || ! command -v wasm-ld >/dev/null || [ ! -d /usr/include/wasm32-wasi ]; then
  echo "check-wasm: FAILED — the toolchain is missing; install it with: $need" >&2
  exit 1
fi
version="$("$CLANG" --version | head -1)"
case "$version" in
  *"clang version 14."*) ;;
  *) echo "check-wasm: FAILED — the committed binaries come from Debian's clang 14; found: $version" >&2; exit 1 ;;
esac

scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
status=0
# The Neon intrinsics the JPEG and PNG kernels are compiled against (wasm/neon/arm_neon.h), each checked
# against SIMDe's definition of it.
if ! node --no-warnings wasm/neon/check.mjs; then
  echo "check-wasm: wasm/neon/arm_neon.h FAILED its check against SIMDe"
  status=1
fi
# libpng's Neon filters as png.wasm builds them, against the PNG specification's unfiltering.
if ! node --no-warnings wasm/png/check.mjs; then
  echo "check-wasm: libpng's Neon filters (wasm/png) FAILED their check against the PNG specification"
  status=1
fi
# zlib's Adler-32 in SIMD128 (wasm/zlib/adler32-simd.c, in png.wasm and tiff.wasm) and png.wasm's wide
# inflate loop (wasm/zlib/inffast-wide.c) against zlib's own.
if ! node --no-warnings wasm/zlib/check.mjs; then
  echo "check-wasm: wasm/zlib (adler32-simd.c, inffast-wide.c) FAILED its check against zlib's own code"
  status=1
fi
for script in wasm/*/build.sh; do
  module="$(basename "$(dirname "$script")")"
  if ! scripts/build-wasm.sh --out "$scratch/$module" "$module" > "$scratch/$module.log" 2>&1; then
    cat "$scratch/$module.log"
    echo "check-wasm: $module FAILED to build"
    status=1
    continue
  fi
  while read -r committed; do
    if cmp -s "$scratch/$module/$(basename "$committed")" "$committed"; then
      echo "check-wasm: $committed matches its sources"
    else
      echo "check-wasm: $committed DIFFERS from a rebuild of its sources: run scripts/build-wasm.sh $module and commit it"
      status=1
    fi
  done < <(sed -n 's/^# output: //p' "$script")
done
exit $status
