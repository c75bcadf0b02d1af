# scripts/aisdk.sh — the AI SDK's UI message stream protocol (issue 25): the
# `ai` package's own chat client (pinned in tests/package.json) against the
# Worker's POST /v1/ui. Sourced by build.sh (ROOT, DIST set; `set -euo pipefail`).

# test_aisdk runs tests/aisdk-worker.test.mjs against a fresh Worker build.
test_aisdk() {
  build_worker || return 1
  echo "== AI SDK chat client against the Worker (tests/aisdk-worker.test.mjs)"
  (cd "$ROOT/tests" && TOOLNEXUS_DIST="$DIST" timeout 300 node --test --test-force-exit --test-concurrency=1 \
    aisdk-worker.test.mjs)
}
