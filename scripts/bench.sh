# scripts/bench.sh — `./build.sh bench`: the benchmarks of issue 7 (not part of
# `./build.sh test`). Sourced by build.sh, which sets ROOT and DIST and runs
# with `set -euo pipefail`.
#
#   ./build.sh bench [rounds=5]   build, measure everything, write bench/RESULTS.md
#   ./build.sh bench profile      where the time and bytes go: CPU profiles of our loop
#                                 (Node, native Go), chromium start-up, wasm code by package
#   ./build.sh bench memory [requests=30000]
#                                 the Worker isolate's memory over many requests beside
#                                 the AI SDK Worker's (bench/worker-memory.mjs); rewrites
#                                 the "Worker memory" section of bench/RESULTS.md

# ensure_bench_modules installs the pinned peers from bench/package-lock.json
# (again whenever the lock file changes).
ensure_bench_modules() {
  local stamp="$ROOT/bench/node_modules/.bench-lock.sha256" want
  want=$(sha256sum "$ROOT/bench/package-lock.json" | cut -d' ' -f1)
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
    return 0
  fi
  echo "== installing the benchmark's npm packages (bench/package-lock.json)"
  (cd "$ROOT/bench" && npm ci --no-audit --no-fund --loglevel=error)
  echo "$want" >"$stamp"
}

# build_syumai_hello builds bench/syumai-hello, a syumai/workers hello-world
# made the standard way (its generated shim, a fresh Go instance per request),
# into $DIST/bench/syumai-hello: the baseline of the Worker's CPU per request.
build_syumai_hello() {
  local out="$1"
  echo "== building the syumai/workers hello-world into $out"
  rm -rf "$out" && mkdir -p "$out/build"
  (cd "$ROOT/bench/syumai-hello" &&
    go run github.com/syumai/workers/cmd/workers-assets-gen -mode=go -o "$out/build" &&
    GOOS=js GOARCH=wasm go build -trimpath -ldflags='-s -w' -o "$out/build/app.wasm" .)
  printf '{\n  "name": "syumai-hello",\n  "main": "./build/worker.mjs",\n  "compatibility_date": "%s"\n}\n' "$WORKER_COMPAT_DATE" >"$out/wrangler.jsonc"
}

# build_go_floor builds bench/gofloor (the one-tool run by hand in Go,
# served through the Worker's own glue) into $1 beside a copy of the
# Worker's JS, built as the Worker is (build_worker_wasm, scripts/worker.sh):
# the Go floor of the Worker's CPU per request (bench/worker.mjs).
build_go_floor() {
  local out="$1" worker="$2"
  echo "== building the Go floor (bench/gofloor) into $out"
  rm -rf "$out" && mkdir -p "$out"
  cp -r "$worker/build" "$worker/wrangler.jsonc" "$out/"
  build_worker_wasm ./bench/gofloor "$out/build/app.wasm" >/dev/null
}

# bench_snapshot copies the fresh builds aside, so that a build running in
# parallel cannot swap the wasm under a measurement; it prints the folder.
bench_snapshot() {
  local snap="$DIST/bench"
  rm -rf "$snap"
  mkdir -p "$snap/worker"
  cp -r "$DIST/web" "$snap/web"
  cp -r "$DIST/worker/build" "$DIST/worker/wrangler.jsonc" "$snap/worker/"
  build_syumai_hello "$snap/syumai-hello" >&2
  (cd "$ROOT" && build_go_floor "$snap/go-floor" "$snap/worker") >&2
  echo "$snap"
}

run_bench() {
  ensure_chromium
  ensure_node_modules
  ensure_bench_modules
  ensure_wrk
  build_browser
  build_worker
  local snap
  snap=$(bench_snapshot)
  if [ "${1:-}" = profile ]; then
    TOOLNEXUS_DIST="$snap" timeout 900 node "$ROOT/bench/profile.mjs"
    return
  fi
  if [ "${1:-}" = memory ]; then
    echo "== Worker memory (load average: $(cut -d' ' -f1-3 /proc/loadavg)); writes the memory section of bench/RESULTS.md"
    TOOLNEXUS_DIST="$snap" timeout 3600 node "$ROOT/bench/worker-memory.mjs" "${2:-30000}" 8 5000 --write
    return
  fi
  echo "== benchmarks (load average: $(cut -d' ' -f1-3 /proc/loadavg)); writes bench/RESULTS.md"
  TOOLNEXUS_DIST="$snap" timeout 3600 node "$ROOT/bench/run.mjs" "$@"
}
