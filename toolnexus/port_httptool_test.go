package toolnexus

import (
	"context"
	"testing"
)

// TestPortHTTPToolBodyEncoding: HTTPToolOptions.Body is the port's body
// encoding of the arguments left after the URL and the query.
func TestPortHTTPToolBodyEncoding(t *testing.T) {
	for _, c := range []struct {
		name, body, wantBody, wantType string
		headers                        map[string]string
		args                           map[string]any
	}{
		{"json default", "", `{"id":"7","note":"a b"}`, "application/json", nil, map[string]any{"note": "a b", "id": "7"}},
		{"json", "json", `{"n":2}`, "application/json", nil, map[string]any{"n": 2}},
		{"form", "form", "n=2&note=a+b%26c", "application/x-www-form-urlencoded", nil, map[string]any{"note": "a b&c", "n": 2}},
		{"form keeps a set content-type", "form", "x=1", "text/plain", map[string]string{"Content-Type": "text/plain"}, map[string]any{"x": "1"}},
		{"raw", "raw", "hello <b>", "", nil, map[string]any{"body": "hello <b>", "other": 1}},
		{"no arguments left: no body", "json", "", "", nil, map[string]any{"dry": true}},
	} {
		rt := &recordingTransport{status: 200, body: "ok"}
		tl := HTTPTool(HTTPToolOptions{Name: "h", Method: "POST", URL: "https://api.test/x", Query: []string{"dry"}, Body: c.body, Headers: c.headers, Transport: rt})
		res := safeExecute(tl, c.args, &ToolContext{Ctx: context.Background()})
		if res.IsError || len(rt.got) != 1 {
			t.Fatalf("%s: %+v", c.name, res)
		}
		req := rt.got[0]
		if string(req.Body) != c.wantBody || req.Header["content-type"] != c.wantType {
			t.Fatalf("%s: body %q type %q", c.name, req.Body, req.Header["content-type"])
		}
	}
	rt := &recordingTransport{status: 200}
	res := safeExecute(HTTPTool(HTTPToolOptions{Name: "h", Method: "POST", URL: "https://api.test/x", Body: "xml", Transport: rt}),
		map[string]any{"a": 1}, &ToolContext{Ctx: context.Background()})
	if !res.IsError || len(rt.got) != 0 {
		t.Fatalf("unknown encoding: %+v", res)
	}
}

// TestPortHTTPToolResultMode: ResultMode shapes a 2xx reply as the
// port's does; an error reply is unchanged.
func TestPortHTTPToolResultMode(t *testing.T) {
	for _, c := range []struct {
		mode, reply string
		status      int
		want        string
		isErr       bool
	}{
		{"", `{"b": 1, "a": [1, 2]}`, 200, `{"b": 1, "a": [1, 2]}`, false},
		{"text", "plain", 201, "plain", false},
		{"json", `{"b": 1, "a": [1, 2]}`, 200, `{"a":[1,2],"b":1}`, false},
		{"json", "not json", 200, `"not json"`, false},
		{"status+text", "made", 201, "201\nmade", false},
		{"status+text", "nope", 404, "HTTP 404: nope", true},
	} {
		rt := &recordingTransport{status: c.status, body: c.reply}
		res := safeExecute(HTTPTool(HTTPToolOptions{Name: "h", URL: "https://api.test/x", ResultMode: c.mode, Transport: rt}),
			map[string]any{}, &ToolContext{Ctx: context.Background()})
		if res.Output != c.want || res.IsError != c.isErr || res.Metadata["status"] != c.status {
			t.Fatalf("%s %q: %+v", c.mode, c.reply, res)
		}
	}
}
