package core

import (
	fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx
	"sort"

	"github.com/toolnexus/wasm/internal/jsonx"
)

// loopOwnedParams are body keys RequestParams may not set.
var loopOwnedParams = map[string]bool{"messages": true, "tools": true, "stream": true}

// encodeParams renders RequestParams once as `,"k":v` pairs in key order,
// ready to splice into every request body.
func encodeParams(params map[string]any) ([]byte, error) {
	keys := make([]string, 0, len(params))
	for k := range params {
		if loopOwnedParams[k] {
			return nil, fmt.Errorf("core: RequestParams may not set %q: the loop owns it", k)
		}
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b []byte
	for _, k := range keys {
		v, err := jsonx.Marshal(params[k])
		if err != nil {
			return nil, fmt.Errorf("core: RequestParams[%q]: %w", k, err)
		}
		b = append(b, ',')
		b = jsonx.AppendString(b, k)
		b = append(b, ':')
		b = append(b, v...)
	}
	return b, nil
}

// withParams splices the encoded params before the body's closing brace.
// The wire formats leave out max_tokens when a param sets it, so no key is
// sent twice.
func withParams(body, params []byte) []byte {
	if len(params) == 0 || len(body) == 0 {
		return body
	}
	out := make([]byte, 0, len(body)+len(params))
	out = append(out, body[:len(body)-1]...)
	out = append(out, params...)
	return append(out, '}')
}
