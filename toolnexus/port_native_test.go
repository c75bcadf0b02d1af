//go:build !js

package toolnexus

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
)

// Native-only conformance with the Go port: the environment and
// net/http's client.

// TestPortHTTPToolHeadersFromEnvironment: natively a ${NAME} that
// Variables lack comes from the environment; Variables win.
func TestPortHTTPToolHeadersFromEnvironment(t *testing.T) {
	t.Setenv("TNX_ISSUE17_TOKEN", "from-env")
	t.Setenv("TNX_ISSUE17_BOTH", "env-loses")
	rt := &recordingTransport{status: 200, body: "ok"}
	tool := HTTPTool(HTTPToolOptions{Name: "h", URL: "https://api.test/x", Transport: rt,
		Headers:   map[string]string{"Authorization": "Bearer ${TNX_ISSUE17_TOKEN}", "X-Both": "${TNX_ISSUE17_BOTH}"},
		Variables: map[string]string{"TNX_ISSUE17_BOTH": "var-wins"}})
	res := safeExecute(tool, map[string]any{}, &ToolContext{Ctx: context.Background()})
	if res.IsError || len(rt.got) != 1 {
		t.Fatalf("res %+v requests %d", res, len(rt.got))
	}
	if h := rt.got[0].Header; h["authorization"] != "Bearer from-env" || h["x-both"] != "var-wins" {
		t.Fatalf("headers = %v", h)
	}
	if got := ExpandEnvHeaders(map[string]string{"A": "x ${TNX_ISSUE17_TOKEN} ${TNX_ISSUE17_UNSET}"}); got["A"] != "x from-env " {
		t.Fatalf("ExpandEnvHeaders = %v", got)
	}
}

// TestPortHTTPClient: ClientOptions.HTTPClient carries the provider
// requests.
func TestPortHTTPClient(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.ReadAll(r.Body)
		w.Header().Set("content-type", "application/json")
		_, _ = io.WriteString(w, openAIReply(turn{Text: "via the client"}))
	}))
	defer srv.Close()
	used := 0
	hc := &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		used++
		return http.DefaultTransport.RoundTrip(r)
	})}
	res, err := CreateClient(ClientOptions{BaseURL: srv.URL, Model: "m", HTTPClient: hc}).Run(context.Background(), "hi", nil)
	if err != nil || res.Text != "via the client" || used != 1 {
		t.Fatalf("res %+v err %v used %d", res, err, used)
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// mcpConfigFile writes doc to a file natively, where paths are read.
func mcpConfigFile(t *testing.T, doc string) (string, bool) {
	path := filepath.Join(t.TempDir(), "mcp.json")
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	return path, true
}
