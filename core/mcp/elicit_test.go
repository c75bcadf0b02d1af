package mcp

import (
	"context"
	"errors"
	"testing"

	"github.com/tidwall/gjson"
	"github.com/toolnexus/wasm/core/tool"
	"github.com/toolnexus/wasm/internal/jsonx"
)

func TestMCPElicitMapping(t *testing.T) {
	form := `{"message":"Your name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}}}}`
	url := `{"mode":"url","message":"Sign in to continue","url":"https://auth.example/start?x=1","elicitationId":"e-1"}`
	tests := []struct {
		name, params string
		answer       tool.Answer
		err          error
		wantKind     string
		wantResult   string
		asks         bool
	}{
		{"form accepted with data", form, tool.Answer{Ok: true, Data: map[string]any{"name": "Ada"}}, nil, "input", `{"action":"accept","content":{"name":"Ada"}}`, true},
		{"form accepted without data", form, tool.Answer{Ok: true}, nil, "input", `{"action":"accept","content":{}}`, true},
		{"form declined", form, tool.Answer{Reason: "not now"}, nil, "input", `{"action":"decline"}`, true},
		{"form cancelled (Escape)", form, tool.Answer{Reason: "cancelled"}, nil, "input", `{"action":"cancel"}`, true},
		{"waitFor failed", form, tool.Answer{}, errors.New("dialog gone"), "input", `{"action":"cancel"}`, true},
		{"url accepted", url, tool.Answer{Ok: true, Data: map[string]any{"ignored": true}}, nil, "authorization", `{"action":"accept"}`, true},
		{"url that is not http(s) is declined unasked", `{"mode":"url","message":"x","url":"javascript:alert(1)"}`, tool.Answer{Ok: true}, nil, "", `{"action":"decline"}`, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got *tool.Request
			s := &mcpServer{cfg: tool.MCPServerConfig{Name: "my srv"}, waitFor: func(_ context.Context, r tool.Request) (tool.Answer, error) {
				got = &r
				a := tc.answer
				a.ID = r.ID
				return a, tc.err
			}}
			res := s.elicit(context.Background(), gjson.Parse(tc.params))
			if res != tc.wantResult {
				t.Errorf("result %s, want %s", res, tc.wantResult)
			}
			if (got != nil) != tc.asks {
				t.Fatalf("asked: %v, want %v", got != nil, tc.asks)
			}
			if got == nil {
				return
			}
			if got.Kind != tc.wantKind || got.ID != "mcp_my_srv_elicit_1" || got.Data["server"] != "my srv" {
				t.Errorf("request %+v", *got)
			}
			if got.Kind == "authorization" && (got.URL != "https://auth.example/start?x=1" || got.Prompt != "Sign in to continue") {
				t.Errorf("url request %+v", *got)
			}
			if got.Kind == "input" && gjson.Get(jsonx.Text(got.Data["schema"]), "properties.name.type").String() != "string" {
				t.Errorf("schema %v", got.Data["schema"])
			}
		})
	}
}
