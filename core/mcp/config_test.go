package mcp

import (
	"regexp"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
	"github.com/toolnexus/wasm/internal/jsonx"
)

func TestParseMCPConfig(t *testing.T) {
	tests := []struct {
		name, doc, want, err string
	}{
		{name: "mcpServers, url implies remote, order kept", doc: `{"mcpServers":{"b":{"url":"https://b/mcp"},"a":{"type":"remote","url":"https://a/mcp","timeout":500,"headers":{"X-Key":"${K}"}}}}`,
			want: "b remote https://b/mcp 30000 false map[];a remote https://a/mcp 500 false map[x-key:${K}]"},
		{name: "servers key, sse type, disabled", doc: `{"servers":{"s":{"type":"sse","url":"http://s/sse","disabled":true}}}`, want: "s remote+sse http://s/sse 30000 true map[]"},
		{name: "mcp key, enabled false, stdio", doc: `{"mcp":{"l":{"command":"npx","args":[]},"e":{"url":"http://e","enabled":false}}}`,
			want: "l local  30000 false map[];e remote http://e 30000 true map[]"},
		{name: "bare map", doc: `{"x":{"url":"http://x"}}`, want: "x remote http://x 30000 false map[]"},
		{name: "empty", doc: ``, want: ""},
		{name: "invalid JSON", doc: `{"mcpServers":`, err: "invalid JSON"},
		{name: "not an object", doc: `[1]`, err: "want a JSON object"},
		{name: "server not an object", doc: `{"mcpServers":{"a":1}}`, err: `server "a": want an object`},
		{name: "bad timeout", doc: `{"mcpServers":{"a":{"url":"http://a","timeout":"soon"}}}`, err: "timeout must be"},
		{name: "unknown type", doc: `{"mcpServers":{"a":{"type":"carrier-pigeon"}}}`, err: "unknown type"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfgs, err := Parse([]byte(tc.doc))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) || !strings.HasPrefix(err.Error(), "mcp config: ") {
					t.Fatalf("err %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, c := range cfgs {
				kind := "local"
				if c.Remote {
					kind = "remote"
				}
				if c.LegacySSE {
					kind += "+sse"
				}
				got = append(got, strings.Join([]string{c.Name, kind, c.URL, itoa(c.TimeoutMs), btoa(c.Disabled), mapString(c.Headers)}, " "))
			}
			if s := strings.Join(got, ";"); s != tc.want {
				t.Errorf("got  %s\nwant %s", s, tc.want)
			}
		})
	}
}

func itoa(n int) string { return jsonx.Text(n) }
func btoa(b bool) string {
	if b {
		return "true"
	}
	return "false"
}
func mapString(m map[string]string) string {
	if len(m) == 0 {
		return "map[]"
	}
	var parts []string
	for k, v := range m {
		parts = append(parts, k+":"+v)
	}
	return "map[" + strings.Join(parts, " ") + "]"
}

func TestMCPToolName(t *testing.T) {
	for in, want := range map[[2]string]string{
		{"docs", "search"}:               "docs_search",
		{"my server", "a.b/c"}:           "my_server_a_b_c",
		{"é", "ok-1"}:                    "__ok-1",
		{strings.Repeat("s", 60), "xyz"}: strings.Repeat("s", 60) + "_xyz"[:4],
	} {
		if got := mcpToolName(in[0], in[1]); got != want || !validName.MatchString(got) {
			t.Errorf("%v: got %q want %q", in, got, want)
		}
	}
}

func TestMCPToolResult(t *testing.T) {
	tests := []struct {
		name, res, out string
		isErr          bool
	}{
		{"parts joined, an image described", `{"content":[{"type":"text","text":"a"},{"type":"image","data":""},{"type":"text","text":"b"}]}`, "a\n[image: unknown type, 0 bytes]\nb", false},
		{"structuredContent wins over text", `{"content":[{"type":"text","text":"a"}],"structuredContent":{"x": [1, 2]}}`, `{"x":[1,2]}`, false},
		{"isError joins the text", `{"content":[{"type":"text","text":"bad"}],"structuredContent":{"x":1},"isError":true}`, "bad", true},
		{"isError without text", `{"isError":true}`, "the tool reported an error", true},
		{"empty", `{}`, "", false},
	}
	for _, tc := range tests {
		r := mcpToolResult(gjson.Parse(tc.res))
		if r.Output != tc.out || r.IsError != tc.isErr {
			t.Errorf("%s: %+v", tc.name, r)
		}
	}
}

func TestResolveURL(t *testing.T) {
	for _, c := range [][3]string{
		{"http://h:1/mcp/sse", "/messages?s=1", "http://h:1/messages?s=1"},
		{"http://h:1/mcp/sse", "messages?s=1", "http://h:1/mcp/messages?s=1"},
		{"http://h:1", "messages", "http://h:1/messages"},
		{"http://h:1/sse?x=/y", "https://other/m", "https://other/m"},
	} {
		if got := resolveURL(c[0], c[1]); got != c[2] {
			t.Errorf("resolveURL(%q, %q) = %q, want %q", c[0], c[1], got, c[2])
		}
	}
}

// validName is the providers' rule for a tool name, which core enforces.
var validName = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)
