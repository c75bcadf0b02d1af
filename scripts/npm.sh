# scripts/npm.sh — the npm package `toolnexus-wasm` (issue 34): dist/npm and
# its tarball, and the tests that install it as a user would. Sourced by
# build.sh (ROOT, DIST set; `set -euo pipefail`).

# build_npm writes $DIST/npm from the built $DIST/web and packs it into
# $DIST/toolnexus-wasm-<version>.tgz, printing the tarball's size and files
# (scripts/npm-package.mjs). Run after build_browser.
build_npm() {
  echo "== building the npm package into $DIST/npm"
  node "$ROOT/scripts/npm-package.mjs" "$DIST/web" "$DIST/npm" || return 1
}

# test_npm builds the package and runs tests/npm-package.test.mjs (the
# tarball's files, Node, tsc --strict and the types at run time) and
# tests/npm-bundlers.test.mjs (Vite + React, webpack 5 and esbuild apps
# built from the installed tarball and driven in Chromium).
test_npm() {
  build_browser || return 1
  build_npm || return 1
  echo "== the npm package (tests/npm-package.test.mjs, tests/npm-bundlers.test.mjs)"
  (cd "$ROOT/tests" && TOOLNEXUS_DIST="$DIST" timeout 600 node --test --test-force-exit --test-concurrency=1 \
    npm-package.test.mjs npm-bundlers.test.mjs)
}
