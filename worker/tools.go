package worker

import (
	"context"
	"fmt"
	"strconv"

	"github.com/toolnexus/wasm/core"
)

// DefaultTools is the tool set the Worker offers: the demo set of the
// browser demo. It is a template: edit this file to offer your own tools.
//
// To add a tool, append it here. A plain Go function is one call:
//
//	core.NativeTool("weather", "Current weather for a city.", core.JSONSchema{
//		"type": "object",
//		"properties": map[string]any{"city": map[string]any{"type": "string"}},
//		"required":   []any{"city"},
//	}, func(ctx context.Context, args map[string]any) (string, error) {
//		return "sunny in " + fmt.Sprint(args["city"]), nil
//	})
//
// Wrap a tool in core.RequireApproval (or set NeedsApproval) when it changes
// something: its first call halts the run with status "pending" and a sealed
// state token, and it runs only when /v1/resume brings an Answer with ok true.
// Outbound HTTP from a tool must go through the Worker's fetch (the Transport
// in Options), not net/http.
func DefaultTools() []core.Tool {
	return []core.Tool{addTool(), refundTool()}
}

// addTool is the harmless tool: it adds two numbers.
func addTool() core.Tool {
	return core.NativeTool("add", "Add two numbers and return the sum.", core.JSONSchema{
		"type": "object",
		"properties": map[string]any{
			"a": map[string]any{"type": "number", "description": "first addend"},
			"b": map[string]any{"type": "number", "description": "second addend"},
		},
		"required": []any{"a", "b"},
	}, func(_ context.Context, args map[string]any) (string, error) {
		a, okA := args["a"].(float64)
		b, okB := args["b"].(float64)
		if !okA || !okB {
			return "", fmt.Errorf("add: a and b must be numbers")
		}
		return strconv.FormatFloat(a+b, 'f', -1, 64), nil
	})
}

// refundTool refunds an order. It needs approval: the loop runs it only
// after an Ok Answer, with the arguments the approver saw.
func refundTool() core.Tool {
	t := core.NativeTool("refund", "Refund a customer's order. Needs a person's approval.", core.JSONSchema{
		"type": "object",
		"properties": map[string]any{
			"order":  map[string]any{"type": "integer", "description": "order number"},
			"reason": map[string]any{"type": "string", "description": "why the refund is due"},
		},
		"required": []any{"order"},
	}, func(_ context.Context, args map[string]any) (string, error) {
		n, ok := args["order"].(float64)
		if !ok || n != float64(int64(n)) || n <= 0 {
			return "", fmt.Errorf("refund: order must be a positive integer")
		}
		// A real deployment calls its payment system here.
		return "refunded order " + strconv.FormatInt(int64(n), 10), nil
	})
	return core.RequireApproval(t)
}
