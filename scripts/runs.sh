# scripts/runs.sh — durable runs and approval links (issue 24): POST /v1/runs on
# workerd with the RunLog and ApprovalLedger Durable Objects, approved from a
# second Chromium context through the link's page. Sourced by build.sh (ROOT,
# DIST set; `set -euo pipefail`).

# test_runs runs tests/worker-runs.test.mjs, tests/runs-qr.test.mjs (the
# element's QR code of the link), tests/worker-survive.test.mjs (runs that
# survive a stopped Worker, issue 31) and tests/survive-pages.test.mjs (the
# approval page and the element asking whether a lost call happened)
# against fresh browser (the element's remote mode) and Worker builds.
test_runs() {
  build_browser || return 1
  build_worker || return 1
  echo "== durable runs and approval links on workerd and Chromium (tests/worker-runs.test.mjs, tests/runs-qr.test.mjs, tests/worker-survive.test.mjs, tests/survive-pages.test.mjs)"
  (cd "$ROOT/tests" && TOOLNEXUS_DIST="$DIST" timeout 1800 node --test --test-force-exit --test-concurrency=1 \
    worker-runs.test.mjs runs-qr.test.mjs worker-survive.test.mjs survive-pages.test.mjs)
}
