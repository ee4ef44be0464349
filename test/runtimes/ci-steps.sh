#!/usr/bin/env bash
# The runtime suites for .ci/run (called after `npm ci` and `npm test`, from the repository root), and the
# tarball test, which installs the packed packages outside the repository.
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

# Every suite runs even when an earlier one fails, so one CI log shows all runtimes; any failure fails CI.
failed=()
suite() {
  local name="$1" script="$2"
  echo "== ${name}"
  node scripts/run-ts.mjs "${script}" || failed+=("${name}")
}
suite "vectors: deno" test/runtimes/deno/run-deno-suite.ts
suite "vectors: browser (chromium)" test/runtimes/browser/run-browser-suite.ts
suite "vectors: workers (miniflare)" test/runtimes/workers/run-workers-suite.ts
suite "workers under load: many requests, one isolate (miniflare)" test/runtimes/workers/run-load-suite.ts
suite "session store: workers (miniflare D1 + R2)" test/runtimes/sessions/run-workers-session-suite.ts
suite "session store: browser (chromium, PGlite on IndexedDB)" test/runtimes/sessions/run-browser-session-suite.ts
suite "playground (chromium)" test/runtimes/playground/run-playground-test.ts
suite "packages: npm pack, installed elsewhere (node, npx, deno, vite, worker, tsc)" test/packages/run-packages-test.ts

if ((${#failed[@]} > 0)); then
  echo "runtime suites failed: ${failed[*]}"
  exit 1
fi
