# Sourced by wasm/*/build.sh: the toolchain, the flags every module shares, and the two ways a source
# file is compiled. glimpse's own C is held to -Wall -Wextra -Werror; library code from Debian is built
# as its upstream ships it, with its warnings kept: compile_library counts them by kind (they are
# upstream's to fix, not ours), and GLIMPSE_LIBRARY_WARNINGS=1 prints every one.
# Every flag that affects the output is pinned, so Debian's clang 14 reproduces the committed bytes.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CLANG="${CLANG:-clang}"
: "${OUT:?OUT (the output folder) must be set; run scripts/build-wasm.sh}"
mkdir -p "$OUT"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

# The unpacked, patched tree of a source package pinned in wasm/sources.lock.
source_tree() { "$ROOT/scripts/debian-source.sh" "$1"; }

WASI_FLAGS=(--target=wasm32-wasi -msimd128 -mbulk-memory -fno-ident -ffile-prefix-map="$ROOT"=. -ffile-prefix-map="$WORK"=gen)
STRICT=(-Wall -Wextra -Werror)

# compile OBJECT-FOLDER "FLAG..." FILE...: one object per file, numbered so link order is argument order,
# compiled $WASM_JOBS (default: every core) at a time.
compile() {
  local folder="$1" flags="$2" n=0 file
  shift 2
  mkdir -p "$folder"
  for file in "$@"; do
    n=$((n + 1))
    printf '%s\0%s\0' "$folder/$(printf '%04d' "$n")-$(basename "$file" .c).o" "$file"
  done | xargs -0 -n 2 -P "${WASM_JOBS:-$(nproc)}" sh -c '"$0" $1 -c -o "$2" "$3"' "$CLANG" "$flags"
}

# compile_library OBJECT-FOLDER "FLAG..." FILE...: compile, with the library's warnings summarised by kind.
compile_library() {
  local folder="$1" log
  log="$WORK/$(basename "$folder")-warnings.log"
  compile "$@" 2> "$log" || { cat "$log" >&2; return 1; }
  if [[ "${GLIMPSE_LIBRARY_WARNINGS:-0}" == 1 ]]; then cat "$log" >&2; fi
  local count
  count=$(grep -c 'warning:' "$log" || true)
  if [[ "$count" -gt 0 ]]; then
    echo "$(basename "$folder"): $count warnings in library sources ($(grep -o '\[-W[^]]*\]' "$log" | sort | uniq -c | sort -rn | head -4 | awk '{printf "%s%s %s", sep, $1, $2; sep=", "}'))"
  fi
}

# link OUTPUT "LINK-FLAG..." OBJECT-FOLDER...
# GLIMPSE_WASM_NAMES=1 keeps the function names (for profiles: node --cpu-prof, callgrind); never committed.
link() {
  local output="$1" flags="$2"
  shift 2
  local objects=() folder
  for folder in "$@"; do objects+=("$folder"/*.o); done
  local strip=-Wl,--strip-all
  if [[ "${GLIMPSE_WASM_NAMES:-0}" == 1 ]]; then strip=-Wl,--strip-debug; fi
  # shellcheck disable=SC2086
  "$CLANG" "${WASI_FLAGS[@]}" -mexec-model=reactor $flags -Wl,--no-entry $strip -Wl,--gc-sections -o "$output" "${objects[@]}"
  echo "built $output ($(wc -c < "$output") bytes)"
}
