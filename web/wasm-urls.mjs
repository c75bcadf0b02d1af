// wasm-urls.mjs — where the wasm files are: beside this module. The build
// (scripts/wasm-hash.mjs) rewrites the names below to content-hashed copies
// (toolnexus.<hash>.wasm), which a server may cache for good (immutable): a
// new build gets a new name. The plain names stay in dist/web as well, so
// load({wasm: "./dist/web/toolnexus.wasm"}) keeps working.

export const WASM_NAMES = Object.freeze({
  default: "toolnexus.wasm",
  tools: "toolnexus-tools.wasm",
});

/** The URL of the default build ("default") or of the tools build ("tools"). */
export function wasmURL(kind = "default") {
  return new URL(`./${WASM_NAMES[kind] ?? WASM_NAMES.default}`, import.meta.url);
}
