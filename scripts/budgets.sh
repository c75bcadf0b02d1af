# scripts/budgets.sh — the wasm size budgets and forbidden symbols as tests
# (tests/budgets.test.mjs). Sourced by build.sh, which sets ROOT and DIST.

# test_budgets builds the browser bundle and the Worker (both are cached by
# the Go build cache when an earlier suite built them), then checks each
# shipped wasm's gzip size against its budget and that none links net/http's
# client or encoding/json's encoder.
test_budgets() {
  build_browser || return 1
  build_worker
  echo "== wasm size budgets and forbidden symbols (tests/budgets.test.mjs)"
  (cd "$ROOT/tests" && TOOLNEXUS_DIST="$DIST" timeout 600 node --test --test-force-exit --test-concurrency=1 budgets.test.mjs)
}
