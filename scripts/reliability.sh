# scripts/reliability.sh — issue 8's reliability and security suites, run by
# ./build.sh test (area "reliability"). Sourced by build.sh, which sets ROOT
# and DIST and runs with `set -euo pipefail`.
#
#   fuzz      the Worker's state token, /v1/resume bodies and /v1/run
#             histories (worker/fuzz_test.go, and chat bodies in worker/gateway), FUZZTIME each (default 10000x, see fuzz_target);
#             core's targets run in test_go
#   faults    tests/faults.test.mjs: JS-side faults in Node and Chromium,
#             upstream faults over real sockets and through the Worker
#   injection tests/injection.test.mjs: hostile text under a CSP in Chromium
#   security  tests/worker-security.test.mjs: approval bypass attempts and
#             the secrets scan on workerd
#   hostile   tests/hostile-input.test.mjs: JSON nested 20,000 and 100,000
#             levels in Node, Chromium and workerd; approval edits recorded
# The load test is separate and bench-style: scripts/load.sh (run_load).

test_reliability() {
  local target pkg
  for pkg in worker worker/gateway; do
    for target in $(grep -ho '^func Fuzz[A-Za-z0-9]*' "$pkg"/*_test.go | cut -d' ' -f2); do
      fuzz_target "$pkg" "$target"
    done
  done
  build_browser || return 1
  build_worker
  echo "== reliability and security (tests/faults.test.mjs, injection.test.mjs, worker-security.test.mjs, hostile-input.test.mjs)"
  (cd "$ROOT/tests" && TOOLNEXUS_DIST="$DIST" timeout 1200 node --test --test-force-exit --test-concurrency=1 \
    faults.test.mjs injection.test.mjs worker-security.test.mjs hostile-input.test.mjs)
}
