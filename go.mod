module github.com/toolnexus/wasm

go 1.26.0

require github.com/tidwall/gjson v1.20.4

require (
	github.com/tidwall/match v1.1.1 // indirect
	github.com/tidwall/pretty v1.3.0 // indirect
)

// gjson's pretty-printer is replaced by a small one of ours that does not
// link encoding/json into the wasm builds; see internal/pretty/go.mod.
replace github.com/tidwall/pretty => ./internal/pretty
