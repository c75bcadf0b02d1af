package mcpserve

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/internal/jsonx"

	"github.com/toolnexus/wasm/internal/httpx/nethttp"
)

// TestRepliesMarshalLikeEncodingJSON: a reply, id included (compacted by
// idOf, whatever the client sent), is what encoding/json writes.
func TestRepliesMarshalLikeEncodingJSON(t *testing.T) {
	for _, raw := range []string{`{"id":[ 1 ,` + "\n" + `2 ]}`, `{"id":{ "a" : 1 }}`, `{"id":"x"}`, `{"id":7}`} {
		ev := rpcFail(idOf(gjson.Parse(raw)), -32600, "no")
		got, _ := jsonx.Marshal(ev)
		std, _ := json.Marshal(ev)
		if !bytes.Equal(got, std) {
			t.Fatalf("%s:\n got %s\nwant %s", raw, got, std)
		}
	}
}

// TestServerOptions: the serverInfo, the tools Expose offers, OnCall, and a
// server without elicitation support saying an approval is required.
func TestServerOptions(t *testing.T) {
	echo := core.NativeTool("echo", "echo", nil, func(_ context.Context, args map[string]any) (string, error) { return args["text"].(string), nil })
	hidden := core.NativeTool("hidden", "not offered", nil, func(context.Context, map[string]any) (string, error) { return "ran", nil })
	ask := core.RequireApproval(core.NativeTool("ask", "needs approval", nil, func(context.Context, map[string]any) (string, error) { return "ran", nil }))
	tk, err := core.CreateToolkit(context.Background(), core.Options{ExtraTools: []core.Tool{echo, hidden, ask}})
	if err != nil {
		t.Fatal(err)
	}
	var calls []CallEvent
	srv := &Server{Name: "gw", Version: "2.0.0",
		Toolkit: func(context.Context) (*core.Toolkit, func(), error) { return tk, func() {}, nil },
		Expose:  func(t core.Tool) bool { return t.Name != "hidden" },
		OnCall:  func(ev CallEvent) { calls = append(calls, ev); panic("a host's bug") },
	}
	post := func(body string) gjson.Result {
		rec := httptest.NewRecorder()
		srv.Handle(nethttp.Writer(rec), nethttp.Request(httptest.NewRequest(http.MethodPost, "/mcp", nil)), []byte(body))
		return gjson.Parse(rec.Body.String())
	}
	if got := post(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`).Get("result.serverInfo").Raw; got != `{"name":"gw","version":"2.0.0"}` {
		t.Fatalf("serverInfo %s", got)
	}
	if got := post(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`).Get("result.tools.#.name").Raw; got != `["echo","ask"]` {
		t.Fatalf("tools %s", got)
	}
	if got := post(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"hidden"}}`).Get("error.code").Int(); got != -32602 {
		t.Fatalf("a tool Expose refuses is unknown: %d", got)
	}
	if got := post(`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}`).Get("result.content.0.text").String(); got != "hi" {
		t.Fatalf("echo %q", got)
	}
	if len(calls) != 1 || calls[0].Name != "echo" || calls[0].IsError {
		t.Fatalf("OnCall heard %+v", calls)
	}
	if got := post(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"ask"}}`).Get("result.content.0.text").String(); !strings.Contains(got, "approval is required") {
		t.Fatalf("ask %q", got)
	}
}
