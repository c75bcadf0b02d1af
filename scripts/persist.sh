# scripts/persist.sh — streaming in the UI, the browser conversation store and
# durable approvals (web/store.mjs, web/durable-wait.mjs): end-to-end tests in
# chromium. Sourced by build.sh (ROOT, DIST set; `set -euo pipefail`).
# Steps check their status explicitly (see build_browser for why).

# test_persist runs tests/persist.test.mjs against a fresh browser build.
test_persist() {
  build_browser || return 1
  echo "== persist tests: streaming, reload, durable approvals in chromium (tests/persist.test.mjs)"
  (cd "$ROOT/tests" && TOOLNEXUS_DIST="$DIST" timeout 300 node --test --test-force-exit --test-concurrency=1 persist.test.mjs)
}
