// wasm-file.mjs — reads a wasm file from disk, for load() in Node (fetch()
// cannot read files). node:fs is imported only when this is called, so a
// page that loads the module never asks for it.
//
// The npm package (dist/npm) ships web/npm/wasm-file.mjs in its place: it
// forwards to "#wasm-file", whose conditions pick a Node reader or a browser
// stub, so no node: import reaches a browser bundle.

/** The bytes of the file at path (a path or a file: URL). */
export async function readWasmFile(path) {
  const { readFile } = await import("node:fs/promises");
  return readFile(path);
}
