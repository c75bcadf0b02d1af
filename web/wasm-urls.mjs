// wasm-urls.mjs — where the wasm files are: beside this module. Each URL is
// written as a literal new URL("./name.wasm", import.meta.url): the pattern
// Vite and webpack 5 follow to emit the file (with a hashed name) and point
// the bundle at it. In dist/web the build (scripts/wasm-hash.mjs) rewrites
// the names below to content-hashed copies (toolnexus.<hash>.wasm), which a
// server may cache for good (immutable): a new build gets a new name. The
// plain names stay in dist/web as well, so
// load({wasm: "./dist/web/toolnexus.wasm"}) keeps working; the npm package
// (dist/npm) keeps the plain names, which a bundler hashes itself.

/** The URL of the default build ("default") or of the tools build ("tools"). */
export function wasmURL(kind = "default") {
  return kind === "tools"
    ? new URL("./toolnexus-tools.wasm", import.meta.url)
    : new URL("./toolnexus.wasm", import.meta.url);
}
