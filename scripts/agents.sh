# scripts/agents.sh — agent teams (core/agents) end to end: in Node through
# toolnexus.mjs, in Chromium through the demo (the support › billing team,
# the reload), and on workerd through /v1/run and /v1/resume. Sourced by
# build.sh (ROOT, DIST set; `set -euo pipefail`).

# test_agents runs tests/agents*.test.mjs and tests/worker-agents.test.mjs
# against fresh browser and Worker builds.
test_agents() {
  build_browser || return 1
  build_worker || return 1
  echo "== agent teams in Node, Chromium and workerd (tests/agents.test.mjs, agents-input.test.mjs, agents-browser.test.mjs, worker-agents.test.mjs)"
  (cd "$ROOT/tests" && TOOLNEXUS_DIST="$DIST" timeout 900 node --test --test-force-exit --test-concurrency=1 \
    agents.test.mjs agents-input.test.mjs agents-browser.test.mjs worker-agents.test.mjs)
}
