package wire

import (
	"encoding/json"
	"errors"
	"sync"

	"github.com/toolnexus/wasm/core/tool"
)

// ToolDecls are the declarations of tools in f's shape (AppendToolDecl),
// one JSON value each.
func ToolDecls(tools []tool.Tool, f Format) ([]json.RawMessage, error) {
	out := make([]json.RawMessage, 0, len(tools))
	for _, t := range tools {
		d, err := AppendToolDecl(f, nil, t.Name, t.Description, t.InputSchema)
		if err != nil {
			return nil, errors.New("tool " + t.Name + ": " + err.Error())
		}
		out = append(out, d)
	}
	return out, nil
}

// ToolList keeps one tool list's encoding per style: a request sends it on
// every turn, and it changes only when a tool is added (its owner then
// starts a new ToolList). Toolkits that share a tool list share it. Safe
// for concurrent use.
type ToolList struct {
	mu sync.Mutex
	m  map[string][]byte
}

// Encoded returns the list's encoding for style: tools in f's shape as one
// JSON array (nil when they do not encode), made once.
func (l *ToolList) Encoded(style string, f Format, tools []tool.Tool) []byte {
	l.mu.Lock()
	defer l.mu.Unlock()
	if b, ok := l.m[style]; ok {
		return b
	}
	var b []byte
	if decls, err := ToolDecls(tools, f); err == nil {
		b = JoinList(decls)
	}
	if l.m == nil {
		l.m = map[string][]byte{}
	}
	l.m[style] = b
	return b
}
