package worker

import (
	"context"
	"fmt"
	"math"
	"strconv"

	"github.com/toolnexus/wasm/core"
)

// ToolEnv is what a tool set is built with, once per request.
type ToolEnv struct {
	// Transport is the outbound HTTP of this platform: the Workers fetch on
	// Workers, nil (core's net/http default) natively. A tool that calls out
	// must use it, never net/http.
	Transport core.Transport
	// Getenv reads the Worker's settings, for a tool's own keys (set them
	// with `wrangler secret put`).
	Getenv func(name string) string
}

// DefaultTools is the tool set the Worker offers: the demo set of the
// browser demo. It is a template: edit this file to offer your own tools.
//
// To add a tool, append it here. A plain Go function is one call:
//
//	core.NativeTool("lookup_order", "Look up an order's status.", core.JSONSchema{
//		"type":       "object",
//		"properties": map[string]any{"order": map[string]any{"type": "integer"}},
//		"required":   []any{"order"},
//	}, func(ctx context.Context, args map[string]any) (string, error) {
//		return fmt.Sprintf("order %v: shipped", args["order"]), nil
//	})
//
// A tool that calls an HTTP API goes through env.Transport:
//
//	httptool.New(httptool.Options{
//		Name: "weather", Description: "Current weather for a city.",
//		URL:       "https://api.example/weather/{city}",
//		Headers:   map[string]string{"authorization": "Bearer ${WEATHER_KEY}"},
//		Variables: map[string]string{"WEATHER_KEY": env.Getenv("WEATHER_KEY")},
//		Transport: env.Transport,
//	})
//
// Wrap a tool in core.RequireApproval (or set NeedsApproval) when it changes
// something: its first call halts the run with status "pending" and a sealed
// state token, and it runs only when /v1/resume brings an Answer with ok true.
func DefaultTools(env ToolEnv) []core.Tool {
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
		return formatNumber(a + b), nil
	})
}

// formatNumber is strconv.FormatFloat(f, 'f', -1, 64), with whole numbers
// (what add mostly returns) formatted as integers: the shortest-float
// algorithm took more of a Worker run's CPU than the rest of the tool.
func formatNumber(f float64) string {
	if f == math.Trunc(f) && math.Abs(f) < 1<<53 && (f != 0 || !math.Signbit(f)) {
		return strconv.FormatInt(int64(f), 10)
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
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
