# scripts/demo-model.sh — the offline demo model for `./build.sh worker-dev`, and
# the checks worker_dev makes before it starts. Sourced by build.sh.

# start_demo_model serves web/demo-model.mjs over HTTP on a free port
# (scripts/demo-model-server.mjs) for the rest of this shell, and sets the
# caller's base, model and key to it (worker_dev's locals).
start_demo_model() {
  local dir=$1 pid i
  rm -f "$dir/demo-model.url"
  node "$ROOT/scripts/demo-model-server.mjs" >"$dir/demo-model.url" &
  pid=$!
  # shellcheck disable=SC2064
  trap "kill $pid 2>/dev/null || true" EXIT
  for i in $(seq 50); do
    [ -s "$dir/demo-model.url" ] && break
    sleep 0.1
  done
  [ -s "$dir/demo-model.url" ] || { echo "worker-dev: the demo model did not start" >&2; return 1; }
  base=$(head -n1 "$dir/demo-model.url")
  model=${model:-toolnexus-demo}
  key=${key:-demo-key}
  LLM_STYLE=openai # the demo model speaks the OpenAI wire format
}

# port_free fails, with one line saying how to pick another port, when
# something already listens on 127.0.0.1:$1.
port_free() {
  if (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; then
    echo "worker-dev: port $1 on 127.0.0.1 is already in use; pick another with PORT=$(($1 + 1)) ./build.sh worker-dev" >&2
    return 1
  fi
}

# test_worker_dev runs tests/worker-dev.test.mjs: the Worker on workerd with
# the demo model behind it, and worker-dev on a taken port.
test_worker_dev() {
  if [ ! -f "$DIST/worker/build/app.wasm" ]; then build_worker || return 1; fi
  echo "== worker-dev: the demo model behind the Worker on workerd (tests/worker-dev.test.mjs)"
  # 600 s: one test builds the Worker again (./build.sh worker, then worker-dev).
  (cd "$ROOT/tests" && TOOLNEXUS_DIST="$DIST" timeout 600 node --test --test-force-exit --test-concurrency=1 worker-dev.test.mjs)
}
