# scripts/aisdk.sh — the AI SDK's UI message stream protocol (issue 25): the
# `ai` package's own chat client (pinned in tests/package.json) against the
# Worker's POST /v1/ui and against toolnexus.mjs's chatTransport in the same
# process, and a React page built on @ai-sdk/react's useChat in Chromium.
# Sourced by build.sh (ROOT, DIST set; `set -euo pipefail`).

# test_aisdk runs tests/aisdk-worker.test.mjs, aisdk-tab.test.mjs and
# aisdk-browser.test.mjs against fresh Worker and browser builds.
test_aisdk() {
  build_worker || return 1
  build_browser || return 1
  echo "== AI SDK chat clients against the Worker and in the tab (tests/aisdk-worker.test.mjs, aisdk-tab.test.mjs, aisdk-browser.test.mjs)"
  (cd "$ROOT/tests" && TOOLNEXUS_DIST="$DIST" timeout 300 node --test --test-force-exit --test-concurrency=1 \
    aisdk-worker.test.mjs aisdk-tab.test.mjs aisdk-browser.test.mjs)
}
