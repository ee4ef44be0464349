#!/usr/bin/env bash
# Prints the path of a Debian source package's tree, unpacked with Debian's patches applied, for the
# version pinned in wasm/sources.lock. Every file is checked against its pinned SHA-256 before use.
# Where the files come from, first match wins:
#   1. $GLIMPSE_DEBIAN_SOURCES, a folder holding the pinned files (an offline or vendored mirror);
#   2. the cache ($GLIMPSE_WASM_CACHE, default ~/.cache/glimpse-wasm), from an earlier fetch;
#   3. deb.debian.org: the main archive, then the security archive (a security update lives there
#      until a point release moves it into the main archive);
#   4. snapshot.debian.org, which keeps every file Debian ever published, by its SHA-256-pinned name
#      under the archive's date-stamped tree ($GLIMPSE_SNAPSHOT_DATE, default below). Not reachable from
#      the machine this was written on, so that route is untested here.
# Usage: scripts/debian-source.sh PACKAGE
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
package="${1:?usage: scripts/debian-source.sh PACKAGE}"
lock="$root/wasm/sources.lock"
cache="${GLIMPSE_WASM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/glimpse-wasm}"
snapshot_date="${GLIMPSE_SNAPSHOT_DATE:-20261130T000000Z}"

mapfile -t entries < <(awk -v p="$package" '$1 == p { print $2, $3, $4, $5 }' "$lock")
if [ "${#entries[@]}" -eq 0 ]; then echo "debian-source: $package is not pinned in wasm/sources.lock" >&2; exit 2; fi
read -r version _ _ _ <<<"${entries[0]}"
plain="${version#*:}"
tree="$cache/$package-$plain"
if [ -f "$tree/.glimpse-unpacked" ]; then echo "$tree"; exit 0; fi

mkdir -p "$cache"
fetch() { # pool-dir file: downloads into the cache from the first source that has it
  local dir="$1" file="$2" encoded="${2//+/%2b}" url
  if [ -n "${GLIMPSE_DEBIAN_SOURCES:-}" ] && [ -f "$GLIMPSE_DEBIAN_SOURCES/$file" ]; then
    cp "$GLIMPSE_DEBIAN_SOURCES/$file" "$cache/$file.part" && return 0
  fi
  for url in "http://deb.debian.org/debian/pool/$dir/$encoded" \
             "http://deb.debian.org/debian-security/pool/updates/$dir/$encoded" \
             "https://snapshot.debian.org/archive/debian/$snapshot_date/pool/$dir/$encoded" \
             "https://snapshot.debian.org/archive/debian-security/$snapshot_date/pool/updates/$dir/$encoded"; do
    if curl -fsSL --retry 2 --connect-timeout 15 -o "$cache/$file.part" "$url" 2>/dev/null; then return 0; fi
  done
  return 1
}
dsc=""
for entry in "${entries[@]}"; do
  read -r _ dir file sum <<<"$entry"
  if [ ! -f "$cache/$file" ] || ! echo "$sum  $cache/$file" | sha256sum -c --quiet >/dev/null 2>&1; then
    fetch "$dir" "$file" || { echo "debian-source: cannot fetch $file (tried \$GLIMPSE_DEBIAN_SOURCES, deb.debian.org, snapshot.debian.org)" >&2; exit 1; }
    echo "$sum  $cache/$file.part" | sha256sum -c --quiet >&2 || { echo "debian-source: $file does not match its pinned SHA-256" >&2; rm -f "$cache/$file.part"; exit 1; }
    mv "$cache/$file.part" "$cache/$file"
  fi
  case "$file" in *.dsc) dsc="$file" ;; esac
done

command -v dpkg-source >/dev/null || { echo "debian-source: dpkg-source (Debian's dpkg-dev) is needed to apply Debian's patches" >&2; exit 1; }
rm -rf "$tree"
# --no-check skips the maintainer's OpenPGP signature (no keyring here); every file's SHA-256 was checked above.
(cd "$cache" && dpkg-source --no-check -x "$dsc" "$tree" >&2)
touch "$tree/.glimpse-unpacked"
echo "$tree"
