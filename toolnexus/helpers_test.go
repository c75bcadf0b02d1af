package toolnexus

import (
	"context"
	"io"
	"strings"
	"testing"
)

// recordingTransport answers every request with status/body and keeps it.
type recordingTransport struct {
	status int
	body   string
	got    []*HTTPRequest
}

func (rt *recordingTransport) Do(ctx context.Context, req *HTTPRequest) (*HTTPResponse, error) {
	rt.got = append(rt.got, req)
	return &HTTPResponse{Status: rt.status, Header: map[string]string{}, Body: io.NopCloser(strings.NewReader(rt.body))}, nil
}

func refundScript(t *testing.T, style Style) *scriptedModel {
	return newScripted(t, style,
		turn{Calls: []ToolRequest{call("c1", "refund", `{"order":"42"}`)}},
		turn{Text: "done with the refund"})
}

// safeExecute runs t as a toolkit runs it outside a loop.
func safeExecute(t Tool, args map[string]any, tctx *ToolContext) ToolResult {
	tk, err := CreateToolkit(context.Background(), Options{Builtins: false, ExtraTools: []Tool{t}})
	if err != nil {
		return ToolResult{Output: err.Error(), IsError: true}
	}
	res, _ := tk.Execute(tctx.Ctx, t.Name, args)
	return res
}

func toolNames(tk *Toolkit) string {
	var names []string
	for _, t := range tk.Tools() {
		names = append(names, t.Name)
	}
	return strings.Join(names, ",")
}

func collect(t *testing.T, ch <-chan StreamEvent) []StreamEvent {
	t.Helper()
	var events []StreamEvent
	for e := range ch {
		events = append(events, e)
	}
	return events
}
