# scripts/test.sh — `./build.sh test`: install what the tests need, then run them all.
# Sourced by build.sh. Areas add their suites as functions named test_<area>;
# run_tests calls every one it finds, in a fixed order.

# ensure_debian_package installs Debian package $2 when command $1 is missing
# (never a downloaded build: this machine reaches only the package registries).
ensure_debian_package() {
  if command -v "$1" >/dev/null; then return 0; fi
  echo "== installing Debian $2"
  local sudo=""
  [ "$(id -u)" = 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$2" >/dev/null
}

# ensure_chromium installs Debian's chromium, which the browser tests drive.
ensure_chromium() { ensure_debian_package /usr/bin/chromium chromium; }

# ensure_wrk installs Debian's wrk, which the load run and the benchmarks use.
ensure_wrk() { ensure_debian_package wrk wrk; }

# node_modules_current says whether tests/node_modules holds what the lock
# file pins: npm writes node_modules/.package-lock.json on install, so a
# newer lock file (a package was added or bumped) means install again.
node_modules_current() {
  local stamp="$ROOT/tests/node_modules/.package-lock.json"
  [ -f "$stamp" ] && [ ! "$ROOT/tests/package-lock.json" -nt "$stamp" ]
}

# ensure_node_modules installs the pinned test packages from tests/package-lock.json.
ensure_node_modules() {
  node_modules_current && return 0
  echo "== installing npm test packages"
  (cd "$ROOT/tests" && npm ci --no-audit --no-fund --loglevel=error)
}

# fuzz_target runs one fuzz target of package $1 named $2 for FUZZTIME
# (default 10000x: 2–6 s here). A count, not a duration: with a duration
# Go 1.26's fuzz coordinator can fail the target with a bare "context
# deadline exceeded" when its workers are starved at the deadline
# (go.dev/issue/75804, fixed in Go 1.27); seen in CI on a loaded machine.
fuzz_target() {
  local n="${FUZZTIME:-10000x}"
  # Each FuzzToolArguments input runs a whole client turn (~150/s).
  [ "$2" != FuzzToolArguments ] || n="${FUZZTIME:-1000x}"
  echo "== fuzz $1 $2 ($n)"
  go test -run='^$' -fuzz="^${2}\$" -fuzztime="$n" "./$1"
}

test_go() {
  echo "== go vet (native and js/wasm)"
  go vet ./...
  GOOS=js GOARCH=wasm go vet ./...
  echo "== gofmt"
  local unformatted
  unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go' -not -path './dist/*'))
  if [ -n "$unformatted" ]; then echo "gofmt would change: $unformatted" >&2; return 1; fi
  echo "== go test (native)"
  go test -count=1 ./...
  # internal/pretty is its own module (it replaces tidwall/pretty; see go.mod).
  (cd internal/pretty && go vet ./... && go test -count=1 ./...)
  # The same unit tests under js/wasm, run by Node through Go's own runner.
  echo "== go test (GOOS=js GOARCH=wasm, in Node)"
  local wasmexec
  wasmexec="$(go env GOROOT)/lib/wasm"
  [ -x "$wasmexec/go_js_wasm_exec" ] || wasmexec="$(go env GOROOT)/misc/wasm"
  PATH="$wasmexec:$PATH" GOOS=js GOARCH=wasm go test -count=1 ./core/... ./jsbridge/... ./internal/... ./worker/...
  # A short fuzz run per target (FUZZTIME overrides): bad bytes from a
  # provider, a stream, a model's arguments or a caller's answer never panic,
  # and the JSON depth check agrees with encoding/json. (Go cannot fuzz under
  # js/wasm; there the seed corpora, deep inputs among them, run as tests.)
  local target pkg
  for pkg in core core/agents core/approval core/wire internal/jsonx internal/sse; do
    for target in $(grep -ho '^func Fuzz[A-Za-z0-9]*' "$pkg"/*_test.go | cut -d' ' -f2); do
      fuzz_target "$pkg" "$target"
    done
  done
}

# test_api runs the JS client API tests (streaming, abort, retries, generate,
# translate, metrics; journaled runs cut off at each step and continued,
# issue 31) under Node against a fresh browser build.
test_api() {
  build_browser || return 1
  echo "== client API tests in Node (tests/client-api.test.mjs, tests/journal-api.test.mjs)"
  (cd "$ROOT/tests" && TOOLNEXUS_DIST="$DIST" timeout 300 node --test --test-force-exit client-api.test.mjs journal-api.test.mjs)
}

# test_readme runs the README's JavaScript and Go examples as written.
test_readme() {
  build_browser || return 1
  echo "== README examples (tests/readme.test.mjs)"
  (cd "$ROOT/tests" && timeout 300 node --test --test-force-exit readme.test.mjs)
}

# test_wiring fails when a tests/*.test.mjs file is named by no area's
# script: a suite that no area runs would pass CI by never running.
test_wiring() {
  local f missing=0
  for f in "$ROOT"/tests/*.test.mjs; do
    if ! grep -q "$(basename "$f")" "$ROOT"/scripts/*.sh; then
      echo "not run by any area: tests/$(basename "$f") (add it to a test_<area> in scripts/)" >&2
      missing=1
    fi
  done
  echo "== every tests/*.test.mjs is run by an area"
  [ "$missing" -eq 0 ]
}

# tally_log prints "passed failed skipped" counted in one area's log: the
# summaries of node --test (TAP "# pass N" or spec "ℹ pass N"; cancelled
# counts as failed) and the verdict lines of go test -v ("--- PASS:" …).
tally_log() {
  awk '
    /^(# |ℹ )pass [0-9]+$/ { p += $3 }
    /^(# |ℹ )(fail|cancelled) [0-9]+$/ { f += $3 }
    /^(# |ℹ )skipped [0-9]+$/ { s += $3 }
    /^ *--- PASS: / { p++ }
    /^ *--- FAIL: / { f++ }
    /^ *--- SKIP: / { s++ }
    END { printf "%d %d %d\n", p, f, s }
  ' "$1"
}

# failure_excerpt prints what failed in a log, indented, at most 80 lines:
# each failing node test with its error block, each failing go test with the
# lines before its verdict, or else the log's tail (a build or vet failure).
# CI keeps only the console, so this is what tells a failure apart there.
failure_excerpt() {
  local out
  out=$(awk '
    /^ *not ok / { keep = 14 }
    /^ *--- FAIL: / { for (i = 1; i <= n; i++) print ring[i]; n = 0; keep = 1 }
    { if (keep > 0) { print; keep-- } else { ring[++n] = $0; if (n > 6) { for (i = 1; i < n; i++) ring[i] = ring[i + 1]; n = 6 } } }
  ' "$1" | head -80)
  [ -n "$out" ] || out=$(tail -n 30 "$1")
  printf '%s\n' "$out" | sed 's/^/      | /'
}

# run_tests runs every area's suites, each with its whole output in
# dist/test-logs/<area>.log, prints one line per area, and ends with one
# line totalling every runner: "N passed, N failed, N skipped". An area
# that fails outside a test (a build, go vet, gofmt) counts one failure. It
# returns non-zero when anything failed, after running every area.
run_tests() {
  ensure_chromium
  ensure_node_modules
  local logs="$DIST/test-logs" area log status p f s
  local passed=0 failed=0 skipped=0
  rm -rf "$logs" && mkdir -p "$logs"
  for area in wiring go api readme browser worker budgets worker_dev embed mcp a2a persist approvals aisdk npm tools agents runs reliability; do
    declare -F "test_$area" >/dev/null || continue
    log="$logs/$area.log"
    echo "== $area"
    status=0
    # A background subshell keeps `set -e` in force inside the area (on the
    # left of || bash would ignore it); -v makes go test name every test.
    (GOFLAGS="${GOFLAGS:+$GOFLAGS }-v" "test_$area") >"$log" 2>&1 &
    wait $! || status=$?
    read -r p f s < <(tally_log "$log")
    if [ "$status" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
    echo "   $area: $p passed, $f failed, $s skipped (exit $status) — $log"
    if [ "$f" -ne 0 ]; then failure_excerpt "$log"; fi
    passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
  done
  echo "$passed passed, $failed failed, $skipped skipped"
  [ "$failed" -eq 0 ]
}
