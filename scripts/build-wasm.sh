#!/usr/bin/env bash
# Builds glimpse's own WASM kernels from wasm/ into packages/media/wasm/ (committed, so installs need no
# toolchain). Needs Debian's clang and lld (apt-get install -y clang lld). The flags pin everything that
# affects the output, so the same compiler version reproduces the committed bytes (scripts/check-wasm.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
OUT="${1:-packages/media/wasm}"
CLANG="${CLANG:-clang}"
mkdir -p "$OUT"

# resize: separable convolution kernel, SIMD128, no libc.
"$CLANG" --target=wasm32 -O3 -msimd128 -mbulk-memory -nostdlib -ffreestanding \
  -fno-ident -ffile-prefix-map="$PWD"=. \
  -Wall -Wextra -Werror \
  -Wl,--no-entry -Wl,--strip-all -Wl,-z,stack-size=65536 -Wl,--initial-memory=131072 \
  -o "$OUT/resize.wasm" wasm/resize/resize.c
echo "built $OUT/resize.wasm ($(wc -c < "$OUT/resize.wasm") bytes)"
