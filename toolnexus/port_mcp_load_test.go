//go:build !js

package toolnexus

import (
	"context"
	"strings"
	"testing"
)

// TestPortLoadMcp: LoadMcp connects a configuration without a toolkit:
// the connected servers' tools (the "tools" filter applied), every
// server's state, and Close ends the sessions.
func TestPortLoadMcp(t *testing.T) {
	m := mockMCP{SessionID: "s-1"}
	srv := newMockMCP(t, &m)
	off := true
	cfg := McpConfig{
		"docs": {URL: srv.URL + "/mcp", Tools: map[string]bool{"fail": false, "ask.name": false}},
		"off":  {URL: srv.URL + "/mcp", Disabled: &off},
		"gone": {URL: "http://127.0.0.1:1/mcp", Timeout: 2000},
	}
	src, err := LoadMcp(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range src.Tools {
		names = append(names, tl.Name)
	}
	if strings.Join(names, ",") != "docs_echo,docs_stats" {
		t.Fatalf("tools %v", names)
	}
	if src.Status["docs"] != StatusConnected || src.Status["off"] != StatusDisabled || src.Status["gone"] != StatusFailed || len(src.Status) != 3 {
		t.Fatalf("status %v", src.Status)
	}
	res := safeExecute(src.Tools[1], map[string]any{}, &ToolContext{Ctx: context.Background()})
	if res.IsError || !strings.Contains(res.Output, `"count"`) {
		t.Fatalf("stats = %+v", res)
	}
	src.Close()
	res = safeExecute(src.Tools[1], map[string]any{}, &ToolContext{Ctx: context.Background()})
	if !res.IsError {
		t.Fatalf("a call after Close = %+v", res)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := LoadMcpWithContext(ctx, cfg); err != context.Canceled {
		t.Fatalf("cancelled load: %v", err)
	}
	if _, err := LoadMcp(42); err == nil {
		t.Fatal("an int config must be refused")
	}
}

// TestPortListMcpTools: ListMcpTools reports each server's tools as
// listed, by their own names and before the "tools" filter, and the
// servers' states.
func TestPortListMcpTools(t *testing.T) {
	m := mockMCP{}
	srv := newMockMCP(t, &m)
	doc := []byte(`{"mcpServers":{"docs":{"url":"` + srv.URL + `/mcp","tools":{"echo":true}},"off":{"url":"x","enabled":false}}}`)
	inv, err := ListMcpTools(context.Background(), doc)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, ti := range inv.Tools["docs"] {
		names = append(names, ti.Name)
	}
	if strings.Join(names, ",") != "echo,stats,fail,ask.name" || inv.Tools["docs"][0].Description != "echo text" ||
		inv.Tools["docs"][0].InputSchema["type"] != "object" {
		t.Fatalf("tools %+v", inv.Tools)
	}
	if inv.Status["docs"] != StatusConnected || inv.Status["off"] != StatusDisabled || len(inv.Tools) != 1 {
		t.Fatalf("status %v tools %v", inv.Status, inv.Tools)
	}
	if empty, err := ListMcpTools(context.Background(), nil); err != nil || len(empty.Status) != 0 {
		t.Fatalf("nil config: %+v %v", empty, err)
	}
}
