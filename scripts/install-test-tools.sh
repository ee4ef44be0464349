#!/usr/bin/env bash
# Installs the Debian tools the strict oracle (test/support/strict-oracle.ts) runs, when missing:
# pngcheck, djpeg (libjpeg-turbo-progs), webpinfo and dwebp (webp), gif2rgb (giflib-tools), qpdf; and
# poppler-utils (pdftotext, pdftoppm, pdfinfo) for test/pdf-oracle.test.ts and the bench's PDF rows;
# libheif-examples (heif-enc makes the HEIC test files, heif-convert is their oracle) and imagemagick
# (/usr/bin/convert writes the TIFF and ICO test files and is their oracle); libavif-bin (avifenc makes the
# AVIF test files, avifdec is their oracle); libtiff-tools (tiffcp re-strips the separate-plane CMYK test
# files, tiffinfo checks their layout); fonts-droid-fallback (a CJK font for the tests of the `fonts` option and
# the CLI's --font).
# With --check (npm's pretest) it only reports what is missing and how to install it.
set -euo pipefail
packages=(pngcheck libjpeg-turbo-progs webp giflib-tools qpdf poppler-utils libheif-examples imagemagick libavif-bin libtiff-tools fonts-droid-fallback)
missing=()
for p in "${packages[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if ((${#missing[@]} == 0)); then exit 0; fi
if [[ "${1:-}" == "--check" ]]; then # npm's pretest: say what is missing, install nothing
  echo "npm test needs Debian tools for its strict oracle; missing: ${missing[*]}" >&2
  echo "install them with: sudo bash scripts/install-test-tools.sh   (or: sudo apt-get install -y ${missing[*]})" >&2
  exit 1
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "install-test-tools: missing ${missing[*]}; run: sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "install-test-tools: installed ${missing[*]}"
