#!/usr/bin/env bash
# Builds glimpse's own WASM modules. Each module is a folder under wasm/ with a build.sh whose
# `# output:` lines name the committed files it produces (committed, so installs need no toolchain).
# Sources are Debian source packages pinned in wasm/sources.lock (scripts/debian-source.sh fetches them).
# Toolchain (Debian bookworm): apt-get install -y clang lld wasi-libc libclang-rt-14-dev-wasm32 \
#   libc++-14-dev-wasm32 libc++abi-14-dev-wasm32 libsimde-dev dpkg-dev curl
# Usage: scripts/build-wasm.sh [--out DIR] [MODULE ...]
#   no MODULE: every module; no --out: each output goes to its committed place.
set -euo pipefail
cd "$(dirname "$0")/.."
out=""
if [ "${1:-}" = "--out" ]; then out="$2"; shift 2; fi
if [ "$#" -gt 0 ]; then modules=("$@"); else modules=(); for f in wasm/*/build.sh; do modules+=("$(basename "$(dirname "$f")")"); done; fi
for module in "${modules[@]}"; do
  script="wasm/$module/build.sh"
  [ -f "$script" ] || { echo "build-wasm: no module '$module' (expected $script)" >&2; exit 2; }
  first_output="$(sed -n 's/^# output: //p' "$script" | head -1)"
  OUT="${out:-$(dirname "$first_output")}" bash "$script"
done
