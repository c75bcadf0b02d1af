# scripts/approvals.sh — the approval dialog: editable arguments (in the demo
# and in remote mode against the Worker) and several requests open at once;
# approval rules, "allow for this conversation" and the decision record
# (issue 32) in the JS API. Sourced by build.sh (ROOT, DIST set;
# `set -euo pipefail`).

# test_approvals runs tests/approval-edit.test.mjs and
# tests/approval-queue.test.mjs against fresh browser and Worker builds.
test_approvals() {
  build_browser || return 1
  build_worker || return 1
  echo "== approval dialog: edited arguments, queued requests (tests/approval-edit.test.mjs, approval-queue.test.mjs)"
  echo "== approval rules, grants and the decision record (tests/decisions.test.mjs, decisions-worker.test.mjs, decisions-browser.test.mjs)"
  (cd "$ROOT/tests" && TOOLNEXUS_DIST="$DIST" timeout 900 node --test --test-force-exit --test-concurrency=1 \
    approval-edit.test.mjs approval-queue.test.mjs decisions.test.mjs decisions-worker.test.mjs decisions-browser.test.mjs)
}
