// wasm-file-browser.mjs — "#wasm-file" outside Node (browsers, bundles): a
// page cannot read files, and nothing here imports Node's modules.

/** Refuses: a page fetches the wasm over http(s) instead. */
export async function readWasmFile(path) {
  throw new Error(`toolnexus: cannot read ${String(path)} here: outside Node the wasm is fetched, so pass load({wasm}) an http(s) URL`);
}
