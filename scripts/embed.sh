# scripts/embed.sh — the <toolnexus-chat> element: its download size and its
# end-to-end tests. Sourced by build.sh (ROOT, DIST set; `set -euo pipefail`).
# Steps check their status explicitly (see build_browser for why).

# EMBED_MODULES is what a page fetches to show the element in remote mode
# (endpoint=…): the element, its engine, its vocabulary and the dialog with
# its forms and editor; EMBED_FILES adds the wasm and its loader (local mode).
EMBED_MODULES="toolnexus-chat.mjs chat-element.mjs chat-engine.mjs outcome.mjs approval-dialog.mjs styles.mjs question-form.mjs elicit-form.mjs args-editor.mjs"
EMBED_FILES="$EMBED_MODULES toolnexus.mjs wasm_exec.js toolnexus.wasm"
# EMBED_QR is loaded later, when a durable run first waits on an approval
# link: the link's QR code (web/qr-code.mjs and lean-qr, scripts/browser.sh web_deps).
EMBED_QR="qr-code.mjs lean-qr.mjs"

# embed_size prints, per mode, the bytes a page downloads to show the element
# (raw and gzip -9), read from the built bundle in $DIST/web.
embed_size() {
  local web="$DIST/web" mode files f raw gz total_raw total_gz
  for mode in local demo remote "remote + QR code"; do
    case $mode in
      local) files=$EMBED_FILES ;;
      demo) files="$EMBED_FILES demo-model.mjs demo-tools.mjs" ;;
      remote) files=$EMBED_MODULES ;;
      *) files="$EMBED_MODULES $EMBED_QR" ;;
    esac
    total_raw=0 total_gz=0
    for f in $files; do
      [ -f "$web/$f" ] || { echo "embed: $web/$f is missing: run ./build.sh build" >&2; return 1; }
      raw=$(wc -c <"$web/$f")
      gz=$(gzip -9 -c "$web/$f" | wc -c)
      total_raw=$((total_raw + raw)) total_gz=$((total_gz + gz))
    done
    echo "   <toolnexus-chat> $mode mode downloads: $total_raw bytes raw, $total_gz bytes gzip -9"
  done
}

# test_embed runs tests/embed.test.mjs against a fresh browser build and the
# Worker build (built here only when test_worker has not already made one).
test_embed() {
  build_browser || return 1
  if [ ! -f "$DIST/worker/build/app.wasm" ]; then build_worker || return 1; fi
  embed_size || return 1
  echo "== embed tests: <toolnexus-chat> in chromium, remote mode on workerd, the READMEs' embedding blocks (tests/embed.test.mjs, tests/embed-readme.test.mjs)"
  (cd "$ROOT/tests" && TOOLNEXUS_DIST="$DIST" timeout 600 node --test --test-force-exit --test-concurrency=1 embed.test.mjs embed-readme.test.mjs)
}
