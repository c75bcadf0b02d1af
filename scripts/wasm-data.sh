# scripts/wasm-data.sh — the post-link step every wasm build runs. Sourced by
# build.sh (with the other scripts/*.sh).

# merge_wasm_data FILE rewrites FILE's data in place, in two steps:
# - scripts/wasm-findfunctab.mjs takes the runtime's findfunctab (16
#   identical 20-byte records per function on wasm: 927 kB of the browser
#   build) out of the data and writes it with a start function at
#   instantiation: the browser build 4,986,197 → 4,059,147 bytes raw, 11.6 kB
#   less gzip. Start-up follows raw bytes (issue 27).
# - scripts/wasm-merge-data.mjs merges the data segments: Go's linker writes
#   one per non-zero run, ~47,000–75,000 per build. Merged (gaps of up to
#   1 kB filled with zeros) the browser build is 81 kB smaller gzipped and
#   instantiates faster. binaryen's wasm-opt --memory-packing took 10 s and
#   made the gzip 100 kB larger.
merge_wasm_data() {
  node "$ROOT/scripts/wasm-findfunctab.mjs" "$1" "$1" &&
    node "$ROOT/scripts/wasm-merge-data.mjs" "$1" "$1"
}
