package toolnexus

import (
	"context"
	"os"
	"strings"

	"github.com/toolnexus/wasm/core/tool"
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

// withEnvironment is vars over the process environment: an MCP server's
// header ${NAME} reads Options.Variables, then the environment, as the Go
// port's does (an unset name stays an error; under js/wasm the environment
// is empty).
func withEnvironment(vars map[string]string) map[string]string {
	env := os.Environ()
	if len(env) == 0 {
		return vars
	}
	out := make(map[string]string, len(env)+len(vars))
	for _, kv := range env {
		if k, v, ok := strings.Cut(kv, "="); ok {
			out[k] = v
		}
	}
	for k, v := range vars {
		out[k] = v
	}
	return out
}

// fillFromEnvironment fills ${NAME} from the process environment; an unset
// name is an error.
func fillFromEnvironment(v string) (string, error) { return tool.FillVariables(v, nil, os.LookupEnv) }
