# scripts/a2a.sh — agent to agent (A2A) end-to-end tests. Sourced by build.sh,
# which sets ROOT and DIST and runs with `set -euo pipefail`; run_tests calls
# test_a2a.
#
# tests/a2a.test.mjs starts an agent built with the official A2A JavaScript
# SDK (tests/a2a-server.mjs, @a2a-js/sdk pinned in tests/package.json) on
# 127.0.0.1 and calls it with our A2A tools: from Go natively
# (TestAgainstTheA2ASDK in core/a2a), from the tools build in Chromium (the
# agent's question in our approval dialog) and from the Worker on workerd
# (A2A_AGENTS, the question halting the run until /v1/resume).
# tests/a2a-worker.test.mjs turns it around: the SDK's client against the
# Worker as an A2A agent (worker/a2aserve: tasks as durable runs, approvals
# as input-required), and the README's curl and SDK lines (curl from
# Debian). The Go unit tests (core/a2a, toolnexus's A2A and Serve,
# worker/a2atools_test.go, worker/a2aserve) run in test_go.

test_a2a() {
  build_browser || return 1
  build_worker || return 1
  ensure_debian_package curl curl
  echo "== A2A tests: Go, chromium, workerd against the official SDK (tests/a2a.test.mjs, tests/a2a-worker.test.mjs)"
  (cd "$ROOT/tests" && TOOLNEXUS_DIST="$DIST" timeout 600 node --test --test-force-exit --test-concurrency=1 a2a.test.mjs a2a-worker.test.mjs)
}
