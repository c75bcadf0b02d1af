# scripts/load.sh — the Worker under load (issue 8). Bench-style, not part of
# ./build.sh test. Sourced by build.sh (which sets ROOT and DIST and runs with
# `set -euo pipefail`); scripts/bench.sh may call run_load. Also runs on its
# own: `bash scripts/load.sh [seconds] [connections]`.
#
#   run_load [seconds=20] [connections=8,32]
#
# Builds the Worker, starts it on workerd (Miniflare) and a counting mock model
# on 127.0.0.1, drives POST /v1/run with wrk (Debian package, installed when
# missing) at each connection count, and prints requests/s, latency, status
# counts, lost and duplicated tool executions and workerd's RSS. Fails on any
# 5xx, a lost or duplicated execution, or RSS that keeps growing.

run_load() {
  local seconds=${1:-20} conns=${2:-8,32}
  ensure_node_modules
  ensure_wrk
  build_worker
  echo "== Worker under load: wrk, ${conns} connections, ${seconds} s each (tests/load.mjs)"
  (cd "$ROOT/tests" && TOOLNEXUS_DIST="$DIST" timeout 900 node load.mjs "$seconds" "$conns")
}

# Run directly: source the other steps the way build.sh does, then run.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  set -euo pipefail
  ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
  DIST="$ROOT/dist"
  cd "$ROOT"
  for f in "$ROOT"/scripts/*.sh; do
    [ "$f" = "$ROOT/scripts/load.sh" ] && continue
    # shellcheck source=/dev/null
    source "$f"
  done
  run_load "$@"
fi
