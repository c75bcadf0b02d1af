# scripts/worker.sh — the Cloudflare Worker: build, serve locally, test. Sourced by
# build.sh, which sets ROOT and DIST and runs with `set -euo pipefail`.
#
#   ./build.sh worker       dist/worker/{wrangler.jsonc, build/} — deploy with
#                           `cd dist/worker && npx wrangler deploy`
#   ./build.sh worker-dev   wrangler dev on http://127.0.0.1:${PORT:-8787}; with no
#                           LLM_BASE_URL set it starts the browser demo's offline
#                           model (scripts/demo-model.sh) and points the Worker at it.

# WORKER_COMPAT_DATE must lie between 2022-11-30 (older dates lack the stream
# constructors Go's wasm needs) and the pinned workerd's own date (1.20260426).
WORKER_COMPAT_DATE=${WORKER_COMPAT_DATE:-2026-04-20}

# wrangler_bin prints the pinned wrangler from tests/node_modules.
wrangler_bin() {
  ensure_node_modules >&2
  echo "$ROOT/tests/node_modules/.bin/wrangler"
}

# wrangler_env runs a command with wrangler kept offline-friendly and its
# state (HOME, XDG_CONFIG_HOME) inside dist/worker.
wrangler_env() {
  local home="$DIST/worker/.home"
  mkdir -p "$home/.config"
  HOME="$home" XDG_CONFIG_HOME="$home/.config" WRANGLER_SEND_METRICS=false \
    CLOUDFLARE_CF_FETCH_ENABLED=false WRANGLER_HIDE_BANNER=true "$@"
}

# write_wrangler_config writes the Worker's wrangler.jsonc to $1 unless one is
# there: the README has people edit it (AGENTS, bindings), and a rebuild —
# ./build.sh worker-dev builds first — must not drop their edits (issue 26).
write_wrangler_config() {
  if [ -f "$1" ]; then
    echo "   kept your ${1#"$ROOT"/} (delete it to get a fresh one)"
    return 0
  fi
  cat >"$1" <<JSONC
// Written by ./build.sh worker when missing; later builds keep your edits (vars such
// as AGENTS, bindings). Delete it to get a fresh one. Deploy from this folder:
// npx wrangler deploy
{
  "\$schema": "../../tests/node_modules/wrangler/config-schema.json",
  "name": "toolnexus-worker",
  "main": "./build/worker.mjs",
  "compatibility_date": "$WORKER_COMPAT_DATE",
  // nodejs_als: the main module tells Go which request's context runs (one Go
  // instance serves every request); enable_request_signal: a client that goes
  // away cancels its run.
  "compatibility_flags": ["nodejs_als", "enable_request_signal"],
  "vars": {
    // Set LLM_BASE_URL and LLM_MODEL here (or with --var), and the secrets with
    // wrangler secret put LLM_API_KEY / STATE_SECRET / API_TOKEN.
    "LLM_STYLE": "openai"
  },
  // The approval ledger: /v1/resume records each state token here before
  // anything runs, so a token is resumed at most once (409 after that). Without
  // this binding the Worker refuses every resume (503 approvals_unavailable).
  "durable_objects": {
    "bindings": [{ "name": "APPROVALS", "class_name": "ApprovalLedger" }]
  },
  "migrations": [{ "tag": "v1", "new_sqlite_classes": ["ApprovalLedger"] }]
  // MCP elicitation answers can land on another isolate than the tools/call
  // waiting for them; bind a KV namespace as STATE_KV to carry them there:
  // "kv_namespaces": [{ "binding": "STATE_KV", "id": "<namespace id>" }]
  // Add { "binding": "CONVERSATIONS_KV", "id": "<namespace id>" } to it for the
  // "conversation" field of /v1/run.
  // With BUILTINS set, the built-in file tools keep their files in an R2 bucket
  // (or, without one, a KV namespace bound as FILES_KV):
  // "r2_buckets": [{ "binding": "FILES_R2", "bucket_name": "toolnexus-files" }]
}
JSONC
}

build_worker() {
  local out="$DIST/worker" build="$DIST/worker/build"
  echo "== building the Worker into $out"
  rm -rf "$build"
  mkdir -p "$build"
  # The main module is ours (worker/js/worker.mjs: one Go instance per
  # isolate serves every request), with the modules beside it (ledger.mjs:
  # the ApprovalLedger Durable Object it exports; bridge-host.mjs: jsbridge's
  # host, as the browser's loader has it); wasm_exec.js is the toolchain's own.
  cp "$ROOT"/worker/js/*.mjs "$ROOT/web/bridge-host.mjs" "$build/"
  cp "$(wasm_exec_js)" "$build/wasm_exec.js"
  # wasm/worker imports core/skills and core/builtins, which register
  # themselves with core (SKILLS, BUILTINS); a Worker without them is a
  # main that leaves the import out. Our own packages are compiled without
  # inlining: that saves ~27 kB gzip and measured no change in /v1/run
  # latency.
  GOOS=js GOARCH=wasm go build -trimpath \
    -gcflags='github.com/toolnexus/wasm/...=-l' \
    -ldflags='-s -w' -o "$build/app.wasm" ./wasm/worker
  merge_wasm_data "$build/app.wasm" # scripts/wasm-data.sh
  write_wrangler_config "$out/wrangler.jsonc"
  # `npx wrangler` run in dist/worker finds the pinned wrangler (newer ones need
  # Node 22) through this link; package.json records the version for a copy
  # deployed from elsewhere.
  ln -sfn ../../tests/node_modules "$out/node_modules"
  local version
  version=$(node -p 'require(process.argv[1]).devDependencies.wrangler' "$ROOT/tests/package.json")
  printf '{\n  "private": true,\n  "devDependencies": { "wrangler": "%s" }\n}\n' "$version" >"$out/package.json"
  local raw gz
  raw=$(wc -c <"$build/app.wasm")
  gz=$(gzip -9 -c "$build/app.wasm" | wc -c)
  echo "   app.wasm: $raw bytes raw, $gz bytes gzip -9"
}

# worker_dev serves dist/worker with wrangler dev. Settings come from the
# environment (LLM_BASE_URL, LLM_STYLE, LLM_MODEL, LLM_API_KEY, STATE_SECRET,
# API_TOKEN, ALLOWED_ORIGINS, BUILTINS, SKILLS, AGENTS); without LLM_BASE_URL the
# browser demo's offline model is used (start_demo_model).
worker_dev() {
  local dir="$DIST/worker" port=${PORT:-8787} wrangler
  port_free "$port" || return 1
  wrangler=$(wrangler_bin)
  local base=${LLM_BASE_URL:-} model=${LLM_MODEL:-} key=${LLM_API_KEY:-} LLM_STYLE=${LLM_STYLE:-}
  case "${AGENTS:-}" in *"'"*)
    echo "worker-dev: AGENTS must not contain a single quote (.dev.vars single-quotes it); write \u0027 instead" >&2
    return 1 ;;
  esac
  if [ -z "$base" ]; then
    start_demo_model "$dir" || return 1
    echo "== no LLM_BASE_URL: using the demo page's offline model at $base"
    echo "   try: curl -s http://127.0.0.1:$port/v1/run -H 'content-type: application/json' -d '{\"prompt\":\"refund order 7\"}'"
  fi
  # .dev.vars holds the settings (secrets included) for wrangler dev only.
  (
    umask 077
    {
      echo "LLM_BASE_URL=$base"
      echo "LLM_STYLE=${LLM_STYLE:-openai}"
      echo "LLM_MODEL=$model"
      echo "LLM_API_KEY=$key"
      echo "STATE_SECRET=${STATE_SECRET:-$(od -An -N24 -tx1 /dev/urandom | tr -d ' \n')}"
      [ -z "${API_TOKEN:-}" ] || echo "API_TOKEN=$API_TOKEN"
      [ -z "${ALLOWED_ORIGINS:-}" ] || echo "ALLOWED_ORIGINS=$ALLOWED_ORIGINS"
      [ -z "${BUILTINS:-}" ] || echo "BUILTINS=$BUILTINS"
      [ -z "${SKILLS:-}" ] || echo "SKILLS=$SKILLS"
      # AGENTS is JSON: single-quoted, so dotenv keeps its double quotes.
      [ -z "${AGENTS:-}" ] || printf "AGENTS='%s'\n" "$AGENTS"
    } >"$dir/.dev.vars"
  )
  echo "== Worker on http://127.0.0.1:$port (Ctrl-C to stop)"
  (cd "$dir" && wrangler_env "$wrangler" dev --ip 127.0.0.1 --port "$port")
}

# worker_dry_run checks that the built folder deploys (offline) with the
# documented command and prints the upload size wrangler reports.
worker_dry_run() {
  local tmp status=0
  ensure_node_modules
  tmp=$(mktemp -d)
  echo "== npx wrangler deploy --dry-run (offline)"
  (cd "$DIST/worker" && NPM_CONFIG_UPDATE_NOTIFIER=false wrangler_env npx --no-install wrangler deploy --dry-run --outdir "$tmp/out") >"$tmp/log" 2>&1 || status=$?
  # wrangler names the bundle after the main module (build/worker.mjs ⇒ worker.js).
  if [ "$status" -ne 0 ] || ! compgen -G "$tmp/out/*.js" >/dev/null; then
    cat "$tmp/log" >&2
    echo "worker: wrangler deploy --dry-run failed" >&2
    rm -rf "$tmp"
    return 1
  fi
  grep -E "Total Upload" "$tmp/log" | sed 's/^/   /'
  # The approval ledger must deploy with the Worker: a plain deploy is then
  # safe (each state token resumes at most once).
  if ! grep -qE "env\.APPROVALS \(ApprovalLedger\).*Durable Object" "$tmp/log"; then
    cat "$tmp/log" >&2
    echo "worker: the dry run does not bind the APPROVALS Durable Object" >&2
    rm -rf "$tmp"
    return 1
  fi
  rm -rf "$tmp"
}

# test_worker runs the end-to-end tests on workerd (Miniflare) against a fresh
# build. The handler's Go tests run in test_go.
test_worker() {
  build_worker
  worker_dry_run
  echo "== worker tests on workerd (tests/worker.test.mjs)"
  (cd "$ROOT/tests" && TOOLNEXUS_DIST="$DIST" timeout 600 node --test --test-force-exit --test-concurrency=1 worker.test.mjs)
  test_worker_parity
}

# test_worker_parity runs the streaming, CONVERSATIONS_KV, /v1/chat/completions
# (with the openai npm client) and /metrics tests on workerd against the build
# test_worker just made.
test_worker_parity() {
  echo "== worker parity tests on workerd (tests/worker-parity.test.mjs)"
  (cd "$ROOT/tests" && TOOLNEXUS_DIST="$DIST" timeout 300 node --test --test-force-exit --test-concurrency=1 worker-parity.test.mjs)
}

# bench_worker prints the Worker's upload size and the latency of a
# one-tool-turn /v1/run on workerd against the local mock (not a test).
bench_worker() {
  build_worker
  worker_dry_run
  (cd "$ROOT/tests" && TOOLNEXUS_DIST="$DIST" timeout 300 node worker-latency.mjs)
}
