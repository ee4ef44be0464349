#!/usr/bin/env bash
# The runtime suites for .ci/run (called after `npm ci` and `npm test`, from the repository root).
# Installs Debian's Chromium when it is missing; Deno and miniflare come from devDependencies.
set -euo pipefail
cd "$(dirname "$0")/../.."

if [[ ! -x /usr/bin/chromium ]]; then
  echo "== installing chromium (apt)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq chromium >/dev/null
fi

echo "== runtime bundles"
node scripts/build-runtimes.mjs

echo "== vectors: deno"
node scripts/run-ts.mjs test/runtimes/deno/run-deno-suite.ts
echo "== vectors: browser (chromium)"
node scripts/run-ts.mjs test/runtimes/browser/run-browser-suite.ts
echo "== vectors: workers (miniflare)"
node scripts/run-ts.mjs test/runtimes/workers/run-workers-suite.ts
echo "== playground (chromium)"
node scripts/run-ts.mjs test/runtimes/playground/run-playground-test.ts
