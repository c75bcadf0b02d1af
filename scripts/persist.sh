# scripts/persist.sh — streaming in the UI, the browser conversation store and
# durable approvals (web/store.mjs, web/durable-wait.mjs): end-to-end tests in
# chromium. Sourced by build.sh (ROOT, DIST set; `set -euo pipefail`).
# Steps check their status explicitly (see build_browser for why).

# test_persist runs tests/persist.test.mjs and tests/tab-survive.test.mjs (a
# tab killed mid-run continues the run when it opens again, issue 31)
# against a fresh browser build.
test_persist() {
  build_browser || return 1
  echo "== persist tests: streaming, reload, durable approvals, runs that survive a crashed tab in chromium (tests/persist.test.mjs, tests/tab-survive.test.mjs)"
  (cd "$ROOT/tests" && TOOLNEXUS_DIST="$DIST" timeout 600 node --test --test-force-exit --test-concurrency=1 persist.test.mjs tab-survive.test.mjs)
}
