#!/usr/bin/env bash
# CI check: rebuilds glimpse's own WASM modules and verifies the committed binaries match byte for byte.
# Skips (exit 0, with a message) when the toolchain is absent, so machines without clang still pass;
# a module whose sources cannot be had (libjpeg-turbo needs a deb-src entry or LIBJPEG_TURBO_SRC) is
# skipped on its own.
set -euo pipefail
cd "$(dirname "$0")/.."
CLANG="${CLANG:-clang}"
if ! command -v "$CLANG" >/dev/null || ! command -v wasm-ld >/dev/null; then
  echo "check-wasm: skipped — clang and wasm-ld are not installed (apt-get install -y clang lld wasi-libc libclang-rt-14-dev-wasm32 dpkg-dev)"
  exit 0
fi
version="$("$CLANG" --version | head -1)"
case "$version" in
  *"clang version 14."*) ;;
  *) echo "check-wasm: skipped — the committed binaries come from Debian clang 14; found: $version"; exit 0 ;;
esac

scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
status=0
for module in resize jpeg webp png; do
  if [ "$module" != resize ] && [ ! -d /usr/include/wasm32-wasi ]; then
    echo "check-wasm: $module skipped — wasi-libc is not installed"
    continue
  fi
  if ! scripts/build-wasm.sh "$scratch" "$module" > "$scratch/$module.log" 2>&1; then
    if grep -q "cannot fetch" "$scratch/$module.log"; then
      echo "check-wasm: $module skipped — $(grep "cannot fetch" "$scratch/$module.log")"
      continue
    fi
    cat "$scratch/$module.log"
    echo "check-wasm: $module FAILED to build"
    status=1
    continue
  fi
  file="$module.wasm"
  [ "$module" = webp ] && file=webp-decoder.wasm
  if cmp -s "$scratch/$file" "packages/media/wasm/$file"; then
    echo "check-wasm: $file matches its sources"
  else
    echo "check-wasm: $file DIFFERS from a rebuild of its sources: run scripts/build-wasm.sh and commit packages/media/wasm/$file"
    status=1
  fi
done
exit $status
