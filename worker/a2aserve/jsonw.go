package a2aserve

import "github.com/toolnexus/wasm/internal/jsonx"

// The package writes its JSON as concatenated text, not by encoding maps
// or by appending field by field: in the wasm build every call site costs
// code, and a map literal of a few keys or a run of appends costs
// kilobytes where one concatenation of constants and quoted values costs a
// few hundred bytes (measured: 122 kB of code with maps, 133 kB with
// appends).

// q is s as a JSON string.
func q(s string) string { return string(jsonx.AppendString(nil, s)) }

// qs is list as a JSON array of strings.
func qs(list []string) string {
	b := []byte{'['}
	for i, s := range list {
		if i > 0 {
			b = append(b, ',')
		}
		b = jsonx.AppendString(b, s)
	}
	return string(append(b, ']'))
}
