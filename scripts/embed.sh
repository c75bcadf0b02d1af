# scripts/embed.sh — the <toolnexus-chat> element: its download size and its
# end-to-end tests. Sourced by build.sh (ROOT, DIST set; `set -euo pipefail`).
# Steps check their status explicitly (see build_browser for why).

# embed_size prints, per mode, the bytes a page downloads to show the element
# (raw and gzip -9), read from the built bundle in $DIST/web. The modes' file
# lists are in scripts/doc-sizes.mjs, which also writes them into
# web/examples/README.md.
embed_size() {
  TOOLNEXUS_DIST="$DIST" node "$ROOT/scripts/doc-sizes.mjs" --embed
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
