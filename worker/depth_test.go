package worker

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/internal/jsonx"
)

// Issue 15: a request body nested ~20,000 levels deadlocked the Worker's Go
// instance, and a model reply of that depth made /v1/run hang. Both are
// refused before anything recursive reads them. (/mcp: mcpserver's
// TestDeepMCPBodyIs400; /v1/chat/completions: gateway's
// TestDeepChatBodyIs400.)

func deepJSON(depth int) string {
	return strings.Repeat(`{"a":[`, depth/2) + "1" + strings.Repeat(`]}`, depth/2)
}

func TestDeepRequestBodiesAre400AndTheNextRequestWorks(t *testing.T) {
	hs := newHarness(t, nil)
	for _, depth := range []int{jsonx.MaxDepth + 2, 20_000, 100_000} {
		deep := deepJSON(depth)
		for _, c := range []struct{ path, body string }{
			{"/v1/run", `{"prompt":"hi","messages":[` + deep + `]}`},
			{"/v1/resume", `{"state":"x","answer":{"id":"r","ok":true,"data":` + deep + `}}`},
		} {
			rec := hs.Do(http.MethodPost, c.path, c.body)
			if rec.Code != http.StatusBadRequest || errCode(decodeMap(t, rec)) != "json_too_deep" {
				t.Fatalf("%s depth %d: %d %s", c.path, depth, rec.Code, rec.Body.String())
			}
		}
		if code, res := hs.Post("/v1/run", map[string]any{"prompt": "hi"}); code != http.StatusOK || res["text"] != "hello" {
			t.Fatalf("the next request after depth %d: %d %v", depth, code, res)
		}
	}
}

func TestDeepModelReplyIs502(t *testing.T) {
	hs := newHarness(t, nil)
	hs.h.opts.Transport = core.TransportFunc(func(ctx context.Context, req *core.HTTPRequest) (*core.HTTPResponse, error) {
		body := `{"choices":[{"message":{"role":"assistant","content":"x"}}],"x":` + deepJSON(100_000) + `}`
		return &core.HTTPResponse{Status: 200, Header: map[string]string{"content-type": "application/json"}, Body: io.NopCloser(strings.NewReader(body))}, nil
	})
	code, res := hs.Post("/v1/run", map[string]any{"prompt": "hi"})
	e, _ := res["error"].(map[string]any)
	if code != http.StatusBadGateway || errCode(res) != "upstream_error" || !strings.Contains(e["message"].(string), "nested more than 1000 levels") {
		t.Fatalf("run = %d %v", code, res)
	}
}
