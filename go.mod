module github.com/toolnexus/wasm

go 1.26.8

require (
	github.com/syumai/workers v0.31.0 // indirect
	github.com/tidwall/gjson v1.20.4 // indirect
	github.com/tidwall/match v1.1.1 // indirect
	github.com/tidwall/pretty v1.3.0 // indirect
	go.yaml.in/yaml/v3 v3.0.6 // indirect
)
