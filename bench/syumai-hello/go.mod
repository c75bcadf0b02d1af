// The benchmark's syumai/workers hello-world is its own module, so that the
// project's module does not depend on syumai/workers.
module github.com/toolnexus/wasm/bench/syumai-hello

go 1.26.0

require github.com/syumai/workers v0.31.0
