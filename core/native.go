package core

import "context"

// NativeTool wraps a Go function as a tool (source "native"). A returned
// error becomes an error result the model reads; schema nil means an object
// with no properties ({"additionalProperties": false}, as in the Go port).
//
//	add := NativeTool("add", "add a and b", JSONSchema{"type": "object", "properties": map[string]any{
//		"a": map[string]any{"type": "number"}, "b": map[string]any{"type": "number"}}},
//		func(ctx context.Context, args map[string]any) (string, error) {
//			a, _ := args["a"].(float64)
//			b, _ := args["b"].(float64)
//			return strconv.FormatFloat(a+b, 'f', -1, 64), nil
//		})
func NativeTool(name, description string, schema JSONSchema, fn func(ctx context.Context, args map[string]any) (string, error)) Tool {
	if schema == nil {
		schema = JSONSchema{"type": "object", "properties": map[string]any{}, "additionalProperties": false}
	}
	return Tool{
		Name:        name,
		Description: description,
		InputSchema: schema,
		Source:      SourceNative,
		Execute: func(args map[string]any, tctx *ToolContext) (ToolResult, error) {
			ctx := context.Background()
			if tctx != nil && tctx.Ctx != nil {
				ctx = tctx.Ctx
			}
			if args == nil {
				args = map[string]any{}
			}
			out, err := fn(ctx, args)
			if err != nil {
				return ToolResult{Output: err.Error(), IsError: true}, nil
			}
			return ToolResult{Output: out}, nil
		},
	}
}
