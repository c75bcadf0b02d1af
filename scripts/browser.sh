# scripts/browser.sh — the browser bundle: build, serve, test. Sourced by build.sh,
# which sets ROOT and DIST and runs with `set -euo pipefail`.

# wasm_exec_js prints the path of the wasm_exec.js that matches this Go toolchain
# (lib/wasm since Go 1.24, misc/wasm before). It is copied, never vendored.
wasm_exec_js() {
  local goroot f
  goroot=$(go env GOROOT)
  for f in "$goroot/lib/wasm/wasm_exec.js" "$goroot/misc/wasm/wasm_exec.js"; do
    if [ -f "$f" ]; then echo "$f"; return 0; fi
  done
  echo "wasm_exec.js not found under $goroot" >&2
  return 1
}

# Every step checks its status explicitly: build.sh calls this as
# `build_browser && serve_demo`, and bash ignores `set -e` inside a function
# run on the left of &&, so a failed go build would otherwise go unnoticed.
build_browser() {
  echo "== building the browser bundle into $DIST/web"
  rm -rf "$DIST/web" && mkdir -p "$DIST/web" || return 1  # no stale files from an older web/
  # Our own packages are compiled without inlining, as the Worker's are: the
  # browser build is 36 kB gzip smaller (1,123 → 1,087 kB) and the Node loop
  # measured the same CPU per run (bench/loop.mjs, 3 alternating rounds).
  local gcflags='github.com/toolnexus/wasm/...=-l'
  GOOS=js GOARCH=wasm go build -trimpath -gcflags="$gcflags" -ldflags='-s -w' -o "$DIST/web/toolnexus.wasm" ./wasm/browser || return 1
  # The same with skills and the built-in tools (wasm/browser-tools imports them; docs/tools.md): the demo page loads it.
  GOOS=js GOARCH=wasm go build -trimpath -gcflags="$gcflags" -ldflags='-s -w' -o "$DIST/web/toolnexus-tools.wasm" ./wasm/browser-tools || return 1
  merge_wasm_data "$DIST/web/toolnexus.wasm" || return 1          # scripts/wasm-data.sh
  merge_wasm_data "$DIST/web/toolnexus-tools.wasm" || return 1
  cp -R "$ROOT/web/." "$DIST/web/" || return 1
  # web/assets.go embeds the approval page's modules in the Worker's build;
  # web/npm holds what only the npm package has (scripts/npm.sh): neither is
  # part of the site.
  rm -f "$DIST/web/"*.go
  rm -rf "$DIST/web/npm"
  local exec_js
  exec_js=$(wasm_exec_js) || return 1
  cp "$exec_js" "$DIST/web/wasm_exec.js" || return 1
  web_deps || return 1
  # Content-hashed copies (cacheable for good), the bundle pointed at them,
  # and brotli beside every wasm; it prints the sizes (scripts/wasm-hash.mjs).
  node "$ROOT/scripts/wasm-hash.mjs" "$DIST/web" || return 1
}

# web_deps copies the third-party browser modules the bundle ships into
# $DIST/web, each with its licence: lean-qr (the QR code of a durable run's
# approval link, web/qr-code.mjs). They are pinned in scripts/web-deps (its
# package.json and lockfile; npm ci installs them there when missing or of
# another version) and copied at build time, never vendored into web/.
web_deps() {
  local deps="$ROOT/scripts/web-deps" want have
  want=$(node -p 'require(process.argv[1]).dependencies["lean-qr"]' "$deps/package.json") || return 1
  have=$(node -p 'try { require(process.argv[1]).version } catch { "" }' "$deps/node_modules/lean-qr/package.json")
  if [ "$have" != "$want" ]; then
    echo "== installing the web bundle's third-party modules (scripts/web-deps: npm ci)"
    (cd "$deps" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error) || return 1
  fi
  { echo "// lean-qr $want from npm, unchanged below this line; MIT licence: lean-qr.LICENSE.txt."
    cat "$deps/node_modules/lean-qr/index.mjs"; } >"$DIST/web/lean-qr.mjs" || return 1
  cp "$deps/node_modules/lean-qr/LICENSE" "$DIST/web/lean-qr.LICENSE.txt" || return 1
}

serve_demo() {
  echo "== demo on http://127.0.0.1:${PORT:-8080}/ (Ctrl-C to stop)"
  node "$ROOT/scripts/serve.mjs" "$DIST/web" "${PORT:-8080}"
}

# test_browser runs the Node and Chromium end-to-end tests against a fresh build.
test_browser() {
  build_browser || return 1
  # toolnexus-chat.mjs paints the element's box from a copy of chat-ui.mjs.
  node "$ROOT/scripts/chat-shell.mjs" --check
  echo "== node + chromium tests (tests/node.test.mjs, tests/browser.test.mjs, tests/csp-styles.test.mjs, tests/wasm-merge-data.test.mjs, tests/wasm-findfunctab.test.mjs, tests/startup.test.mjs)"
  (cd "$ROOT/tests" && TOOLNEXUS_DIST="$DIST" timeout 420 node --test --test-force-exit --test-concurrency=1 \
    node.test.mjs browser.test.mjs csp-styles.test.mjs wasm-merge-data.test.mjs wasm-findfunctab.test.mjs startup.test.mjs)
}
