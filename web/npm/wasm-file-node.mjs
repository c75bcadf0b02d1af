// wasm-file-node.mjs — "#wasm-file" under the "node" condition: load() in
// Node reads the wasm beside the package's modules from disk.

import { readFile } from "node:fs/promises";

/** The bytes of the file at path (a path or a file: URL). */
export function readWasmFile(path) {
  return readFile(path);
}
