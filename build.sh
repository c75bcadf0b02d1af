#!/usr/bin/env bash
# build.sh — build, serve and test toolnexus-wasm.
#
#   ./build.sh              build the browser bundle into dist/web and the npm package into dist/npm
#   ./build.sh demo         build and serve dist/web on http://127.0.0.1:${PORT:-8080}
#   ./build.sh worker       build the Cloudflare Worker into dist/worker
#   ./build.sh worker-dev   build and serve the Worker locally on http://127.0.0.1:${PORT:-8787}
#   ./build.sh test         install what the tests need, then run every test
#   ./build.sh bench        run the benchmarks (not part of test)
#   ./build.sh load         load the Worker on workerd with wrk (not part of test)
#
# Each area keeps its steps in scripts/<area>.sh; this file only dispatches.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
DIST="${TOOLNEXUS_DIST:-$ROOT/dist}" # the tests build into a folder of their own with it
cd "$ROOT"

for f in "$ROOT"/scripts/*.sh; do
  # shellcheck source=/dev/null
  source "$f"
done

cmd=${1:-build}
shift || true
case "$cmd" in
  build) build_browser && build_npm ;;
  demo) build_browser && serve_demo ;;
  worker) build_worker ;;
  worker-dev) port_free "${PORT:-8787}" && build_worker && worker_dev ;;
  test) run_tests "$@" ;;
  bench) run_bench "$@" ;;
  load) build_worker && run_load "$@" ;;
  *)
    echo "usage: ./build.sh [build|demo|worker|worker-dev|test|bench|load]" >&2
    exit 2
    ;;
esac
