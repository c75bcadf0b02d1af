# scripts/wasm-data.sh — the post-link step every wasm build runs. Sourced by
# build.sh (with the other scripts/*.sh).

# merge_wasm_data FILE merges FILE's data segments in place
# (scripts/wasm-merge-data.mjs): Go's linker writes one per non-zero run,
# ~47,000–75,000 per build. Merged (gaps of up to 1 kB filled with zeros) the
# browser build is 81 kB smaller gzipped and instantiates faster. binaryen's
# wasm-opt --memory-packing took 10 s and made the gzip 100 kB larger.
merge_wasm_data() {
  node "$ROOT/scripts/wasm-merge-data.mjs" "$1" "$1"
}
