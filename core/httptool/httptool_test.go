package httptool

import (
	"context"
	"github.com/toolnexus/wasm/core/tool"
	"github.com/toolnexus/wasm/internal/jsonx"
	"io"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

// recordingTransport answers every request with status/body and keeps it.
type recordingTransport struct {
	status int
	body   string
	got    []*tool.HTTPRequest
}

func (rt *recordingTransport) Do(ctx context.Context, req *tool.HTTPRequest) (*tool.HTTPResponse, error) {
	rt.got = append(rt.got, req)
	return &tool.HTTPResponse{Status: rt.status, Header: map[string]string{}, Body: io.NopCloser(strings.NewReader(rt.body))}, nil
}

func TestHTTPTool(t *testing.T) {
	tests := []struct {
		name       string
		opts       Options
		args       map[string]any
		status     int
		wantURL    string
		wantMethod string
		wantBody   string // JSON, "" for none
		wantHeader [2]string
		wantOut    string
		wantErr    bool
	}{
		{
			name: "GET substitutes and escapes the placeholder, the rest goes to the query",
			opts: Options{URL: "https://api.test/orders/{id}", Headers: map[string]string{"Authorization": "Bearer ${KEY}"}, Variables: map[string]string{"KEY": "s3cret"}},
			args: map[string]any{"id": "4 2/x", "verbose": true}, status: 200,
			wantURL: "https://api.test/orders/4%202%2Fx?verbose=true", wantMethod: "GET",
			wantHeader: [2]string{"authorization", "Bearer s3cret"}, wantOut: "reply",
		},
		{
			name: "POST sends the other arguments as JSON over the fixed body",
			opts: Options{Method: "post", URL: "https://api.test/orders/{id}/refund", BodyFields: map[string]any{"source": "agent", "amount": 1}, Query: []string{"dry"}},
			args: map[string]any{"id": 42.0, "amount": 10.0, "dry": "yes"}, status: 201,
			wantURL: "https://api.test/orders/42/refund?dry=yes", wantMethod: "POST",
			wantBody: `{"amount":10,"source":"agent"}`, wantHeader: [2]string{"content-type", "application/json"}, wantOut: "reply",
		},
		{
			name: "non-2xx is an error result with the body",
			opts: Options{URL: "https://api.test/x"}, status: 404,
			wantURL: "https://api.test/x", wantMethod: "GET", wantOut: "HTTP 404: reply", wantErr: true,
		},
		{
			name: "a placeholder missing from the arguments is an error result and sends nothing",
			opts: Options{URL: "https://api.test/orders/{id}"}, args: map[string]any{"order": "1"},
			wantOut: "the URL needs id", wantErr: true,
		},
		{
			name:    "an unset variable is an error result and sends nothing",
			opts:    Options{URL: "https://api.test/x", Headers: map[string]string{"x-key": "${NOPE}"}},
			wantOut: "variable NOPE is not set", wantErr: true,
		},
		{
			name: "a non-http URL is refused",
			opts: Options{URL: "javascript:alert(1)//{id}"}, args: map[string]any{"id": "1"},
			wantOut: "want http or https", wantErr: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rt := &recordingTransport{status: tt.status, body: "reply"}
			tt.opts.Name = "api"
			tt.opts.Transport = rt
			ht := New(tt.opts)
			if tt.args == nil {
				tt.args = map[string]any{}
			}
			res := safeExecute(ht, tt.args, &tool.ToolContext{})
			if res.IsError != tt.wantErr || !strings.Contains(res.Output, tt.wantOut) {
				t.Fatalf("result = %+v, want error=%v containing %q", res, tt.wantErr, tt.wantOut)
			}
			if tt.wantURL == "" {
				if len(rt.got) != 0 {
					t.Fatalf("a request was sent: %+v", rt.got[0])
				}
				return
			}
			req := rt.got[0]
			if req.URL != tt.wantURL || req.Method != tt.wantMethod {
				t.Fatalf("sent %s %s, want %s %s", req.Method, req.URL, tt.wantMethod, tt.wantURL)
			}
			if string(req.Body) != tt.wantBody {
				t.Fatalf("body = %s, want %s", req.Body, tt.wantBody)
			}
			if k := tt.wantHeader[0]; k != "" && req.Header[k] != tt.wantHeader[1] {
				t.Fatalf("header %s = %q", k, req.Header[k])
			}
			if res.Metadata["status"] != tt.status {
				t.Fatalf("metadata = %v", res.Metadata)
			}
		})
	}
}

func TestHTTPToolSchemaFromPlaceholders(t *testing.T) {
	tool := New(Options{Name: "get", URL: "https://api.test/{kind}/{id}"})
	if got := gjson.Get(mustJSON(tool.InputSchema), "required").Raw; got != `["kind","id"]` {
		t.Fatalf("required = %s", got)
	}
}

func TestHTTPToolTruncatesLargeReplies(t *testing.T) {
	rt := &recordingTransport{status: 200, body: strings.Repeat("x", 100)}
	res := safeExecute(New(Options{Name: "big", URL: "https://api.test/", MaxBytes: 10, Transport: rt}), map[string]any{}, &tool.ToolContext{})
	if !strings.HasPrefix(res.Output, "xxxxxxxxxx\n[truncated at 10 bytes]") {
		t.Fatalf("output = %q", res.Output)
	}
}

func TestURLHelpers(t *testing.T) {
	if got := escapeComponent("a b/ç?&=~"); got != "a%20b%2F%C3%A7%3F%26%3D~" {
		t.Errorf("escapeComponent = %s", got)
	}
	tests := []struct {
		in   string
		want string
	}{
		{"https://h/p", "https://h/p?a=1&b=x%20y"},
		{"https://h/p?z=0", "https://h/p?z=0&a=1&b=x%20y"},
		{"https://h/p?", "https://h/p?a=1&b=x%20y"},
		{"https://h/p#frag", "https://h/p?a=1&b=x%20y#frag"},
	}
	for _, tt := range tests {
		if got := appendQuery(tt.in, [][2]string{{"a", "1"}, {"b", "x y"}}); got != tt.want {
			t.Errorf("appendQuery(%s) = %s, want %s", tt.in, got, tt.want)
		}
	}
	for u, want := range map[string]bool{"http://x": true, "HTTPS://x/y": true, "javascript:x": false, "https:///x": false, "ftp://x": false} {
		if httpScheme(u) != want {
			t.Errorf("httpScheme(%s) != %v", u, want)
		}
	}
}

// safeExecute runs t's Execute as a toolkit does, an error as a result.
func safeExecute(t tool.Tool, args map[string]any, tctx *tool.ToolContext) tool.ToolResult {
	res, err := t.Execute(args, tctx)
	if err != nil {
		return tool.ToolResult{Output: err.Error(), IsError: true}
	}
	return res
}

func mustJSON(v any) string { b, _ := jsonx.Marshal(v); return string(b) }
