// wasm-file.mjs (the npm package's) — stands in for web/wasm-file.mjs in
// dist/npm. "#wasm-file" is one of the package's own imports (package.json):
// under the "node" condition it is wasm-file-node.mjs, which reads the file
// from disk; anywhere else (a browser bundle) wasm-file-browser.mjs, which
// imports nothing from Node.

export { readWasmFile } from "#wasm-file";
