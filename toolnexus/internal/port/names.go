package port

import (
	"context"
	"fmt"
	"strings"

	"github.com/toolnexus/wasm/internal/jsonx"
)

func marshalJSON(v any) ([]byte, error)                { return jsonx.Marshal(v) }
func decodeObject(data []byte) (map[string]any, error) { return jsonx.DecodeObject(data) }

// orBackground treats a nil ctx as context.Background(), as the port does.
func orBackground(ctx context.Context) context.Context {
	if ctx == nil {
		return context.Background()
	}
	return ctx
}

// noVariables fills no ${NAME}: one left in a header value is an error.
func noVariables(v string) (string, error) {
	if i := strings.Index(v, "${"); i >= 0 {
		return "", fmt.Errorf("no value for %s", v[i:])
	}
	return v, nil
}
