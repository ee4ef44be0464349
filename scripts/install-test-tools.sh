#!/usr/bin/env bash
# The Debian packages `npm test` needs: the strict oracle's tools (test/support/strict-oracle.ts), the tools
# that write test files, and a CJK font. npm's pretest runs this script, so `npm install` then `npm test`
# works on a fresh Debian or Ubuntu machine.
#
#   bash scripts/install-test-tools.sh          installs what is missing: as root, or through `sudo -n`
#                                               (sudo that asks no password); otherwise it prints the one
#                                               command to run and exits 1
#   bash scripts/install-test-tools.sh --check  installs nothing: exits 1 naming what is missing
#   bash scripts/install-test-tools.sh --list   prints the table below (the README's list is generated from it)
#
# Only bash builtins and dpkg-query, id, sudo, env and apt-get are run, all found on PATH: the tests
# (test/setup/install-test-tools.test.ts) give it fake ones in a folder of their own.
set -euo pipefail

# Debian package|what the tests run from it
TOOLS=(
  'pngcheck|`pngcheck`: the PNG oracle'
  'libjpeg-turbo-progs|`djpeg -strict`: the JPEG oracle'
  'webp|`webpinfo`, `dwebp`: the WebP oracle'
  'giflib-tools|`gif2rgb`: the GIF oracle'
  'qpdf|`qpdf --check`: the PDF oracle'
  'poppler-utils|`pdftotext`, `pdftoppm`, `pdfinfo`: the PDF text and page oracle, the bench'\''s PDF rows'
  'libheif-examples|`heif-enc` writes the HEIC test files, `heif-convert` is their oracle'
  'imagemagick|`convert` writes the TIFF and ICO test files and is their oracle'
  'libavif-bin|`avifenc` writes the AVIF test files, `avifdec` is their oracle'
  'libtiff-tools|`tiffcp` re-strips the separate-plane CMYK test files, `tiffinfo` checks their layout'
  'fonts-droid-fallback|a CJK font, for the tests of the `fonts` option and `--font`'
  'libimage-exiftool-perl|`exiftool` writes GPS, XMP and comments into test files and is the oracle that none is sent'
  'fontconfig|`fc-list`: how `glimpse mcp` finds a system font for SVG text'
)
[[ "${BASH_SOURCE[0]}" == */* ]] && here="${BASH_SOURCE[0]%/*}" || here=.
self="$(cd "$here" && pwd)/install-test-tools.sh"

mode="${1:-install}"
case "$mode" in
  install | --check | --list) ;;
  *)
    echo "usage: bash scripts/install-test-tools.sh [--check | --list]" >&2
    exit 2
    ;;
esac

packages=()
for entry in "${TOOLS[@]}"; do packages+=("${entry%%|*}"); done

if [[ "$mode" == --list ]]; then
  for entry in "${TOOLS[@]}"; do printf '%s\t%s\n' "${entry%%|*}" "${entry#*|}"; done
  exit 0
fi

if ! command -v dpkg-query >/dev/null; then
  echo "npm test needs these Debian packages' tools: ${packages[*]}" >&2
  echo "this machine has no dpkg-query, so nothing was checked or installed: install the same tools with its own package manager (and see scripts/install-test-tools.sh)" >&2
  exit 1
fi

# Sets `missing` to the packages dpkg does not list as installed (no process substitution: a bare chroot
# has no /dev/fd).
find_missing() {
  missing=()
  local p
  for p in "${packages[@]}"; do
    [[ "$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null)" == installed ]] || missing+=("$p")
  done
}
find_missing
if ((${#missing[@]} == 0)); then exit 0; fi

# fail WHY COMMAND: what is missing, why it was not installed, and the one command that installs it.
fail() {
  echo "npm test needs Debian packages for its oracles and test files; missing: ${missing[*]}" >&2
  echo "$1" >&2
  echo "run this once, then npm test again:" >&2
  echo "  $2" >&2
  exit 1
}

# Who installs: root itself, or sudo when it asks no password. Otherwise `rerun` is the one command to print.
as_root=() why_not=''
if [[ "$(id -u)" == 0 ]]; then
  rerun="bash $self"
elif command -v sudo >/dev/null; then
  as_root=(sudo -n) rerun="sudo bash $self"
  sudo -n true 2>/dev/null || why_not='this is not root, and sudo wants a password'
else
  rerun="su -c 'bash $self'" why_not='this is not root, and there is no sudo'
fi
[[ "$mode" != --check ]] || fail '(--check installs nothing)' "$rerun"
[[ -z "$why_not" ]] || fail "it installs them itself as root or through a sudo that asks no password; $why_not" "$rerun"

echo "install-test-tools: installing ${missing[*]} (apt-get)" >&2
# Another apt-get may hold the lock (a second checkout's npm test): wait for it instead of failing.
apt=("${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -qq -o DPkg::Lock::Timeout=300)
"${apt[@]}" update >/dev/null || fail "apt-get update failed (its message is above)" "$rerun"
"${apt[@]}" install -y --no-install-recommends "${missing[@]}" >/dev/null ||
  fail "apt-get install failed (its message is above)" "$rerun"

find_missing
if ((${#missing[@]} > 0)); then fail "apt-get finished, but these are still not installed" "$rerun"; fi
echo "install-test-tools: installed" >&2
