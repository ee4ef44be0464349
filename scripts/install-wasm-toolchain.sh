#!/usr/bin/env bash
# Installs Debian's toolchain for scripts/build-wasm.sh and scripts/check-wasm.sh when it is missing.
set -euo pipefail
packages=(clang lld wasi-libc libclang-rt-14-dev-wasm32 libc++-14-dev-wasm32 libc++abi-14-dev-wasm32 libsimde-dev dpkg-dev curl)
missing=()
for p in "${packages[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if ((${#missing[@]} == 0)); then exit 0; fi
if [ "$(id -u)" -ne 0 ]; then
  echo "install-wasm-toolchain: missing ${missing[*]}; run: sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "install-wasm-toolchain: installed ${missing[*]}"
