#!/usr/bin/env bash
# output: packages/media/wasm/resize.wasm
# The SIMD separable resampling kernel (resize.c): no libc; one import, env.emit_rows (finished rows to the host).
source "$(dirname "$0")/../build-lib.sh"
"$CLANG" --target=wasm32 -O3 -msimd128 -mbulk-memory -nostdlib -ffreestanding \
  -fno-ident -ffile-prefix-map="$ROOT"=. "${STRICT[@]}" \
  -Wl,--no-entry -Wl,--strip-all -Wl,-z,stack-size=65536 -Wl,--initial-memory=131072 \
  -o "$OUT/resize.wasm" "$ROOT/wasm/resize/resize.c"
echo "built $OUT/resize.wasm ($(wc -c < "$OUT/resize.wasm") bytes)"
