# scripts/tools.sh — skills and the built-in tools (docs/tools.md). Sourced by
# build.sh, which sets ROOT and DIST and runs with `set -euo pipefail`.

# test_tools runs what tests the tools beyond test_go: the tool packages'
# tests under js/wasm (core/builtins, core/skills, and the bridge and Worker
# that link them), the JS API and the demo page with the
# tools build of the wasm (Node and Chromium), the default build's refusal,
# and on workerd the Worker's bundled skill and its built-in file tools over
# KV and R2.
test_tools() {
  local wasmexec
  wasmexec="$(go env GOROOT)/lib/wasm"
  [ -x "$wasmexec/go_js_wasm_exec" ] || wasmexec="$(go env GOROOT)/misc/wasm"
  echo "== go test of skills and built-ins under js/wasm"
  PATH="$wasmexec:$PATH" GOOS=js GOARCH=wasm go test -count=1 ./core/builtins/ ./core/skills/ ./core/internal/unlinked/ ./jsbridge/ ./worker/ || return 1
  build_browser || return 1
  echo "== tools in Node and Chromium (tests/tools*.test.mjs)"
  (cd "$ROOT/tests" && TOOLNEXUS_DIST="$DIST" timeout 300 node --test --test-force-exit --test-concurrency=1 \
    tools.test.mjs tools-lean.test.mjs tools-browser.test.mjs) || return 1
  build_worker || return 1
  echo "== the Worker's bundled skill and built-in file tools on workerd (tests/tools-worker.test.mjs)"
  (cd "$ROOT/tests" && TOOLNEXUS_DIST="$DIST" timeout 300 node --test --test-force-exit tools-worker.test.mjs)
}
