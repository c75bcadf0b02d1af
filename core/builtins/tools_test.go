package builtins

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/toolnexus/wasm/core/tool"
)

func TestQuestionTool(t *testing.T) {
	tk := builtinKit(t, nil)
	q := tk["question"]
	args := map[string]any{"questions": []any{
		map[string]any{"question": "Which color?", "options": []any{"red", "blue"}},
		map[string]any{"question": "Which sizes?", "options": []any{"S", "M", "L"}, "multiple": true, "header": "Size"},
		map[string]any{"question": "Anything else?"},
	}}
	res, _ := q.Execute(args, &tool.ToolContext{Ctx: context.Background()})
	req := tool.PendingOf(res)
	if req == nil || req.Kind != tool.KindQuestion || req.Prompt != "Which color? (options: red, blue)\nWhich sizes? (options: S, M, L)\nAnything else?" {
		t.Fatalf("first call = %+v", res)
	}
	qs, _ := req.Data["questions"].([]any)
	if len(qs) != 3 || qs[1].(map[string]any)["multiple"] != true || qs[1].(map[string]any)["header"] != "Size" {
		t.Fatalf("data.questions = %v", req.Data["questions"])
	}
	answer := &tool.Answer{ID: req.ID, Ok: true, Data: map[string]any{"answers": []any{"blue", []any{"S", "L"}}}}
	res, _ = q.Execute(args, &tool.ToolContext{Ctx: context.Background(), Answer: answer})
	if res.IsError || res.Output != "Which color?\n→ blue\nWhich sizes?\n→ S, L\nAnything else?\n→ (no answer)" {
		t.Fatalf("answered = %+v", res)
	}
	res, _ = q.Execute(args, &tool.ToolContext{Answer: &tool.Answer{Ok: true, Data: map[string]any{"output": "just this"}}})
	if res.Output != "just this" {
		t.Fatalf("output answer = %q", res.Output)
	}
	for _, bad := range []map[string]any{{}, {"questions": []any{}}, {"questions": []any{"text"}}, {"questions": []any{map[string]any{"question": ""}}}} {
		if res := execTool(t, tk, "question", bad); !res.IsError || tool.PendingOf(res) != nil {
			t.Errorf("question(%v) = %+v, want an error result", bad, res)
		}
	}
}

func TestTodowrite(t *testing.T) {
	tk := builtinKit(t, nil)
	res := execTool(t, tk, "todowrite", map[string]any{"todos": []any{
		map[string]any{"id": "1", "text": "plan", "completed": true},
		map[string]any{"id": "2", "text": "build", "completed": false},
	}})
	if res.IsError || res.Output != "[x] plan\n[ ] build\n(1 of 2 done)" {
		t.Fatalf("todowrite = %+v", res)
	}
	res = execTool(t, tk, "todowrite", map[string]any{"todos": []any{}})
	if res.Output != "(no todos)" || res.Metadata["previous"] != 2 {
		t.Fatalf("second todowrite = %+v", res)
	}
	if res := execTool(t, tk, "todowrite", map[string]any{"todos": "x"}); !res.IsError {
		t.Fatalf("bad todos = %+v", res)
	}
}

type fakeWeb map[string]*tool.HTTPResponse

func (f fakeWeb) Do(_ context.Context, req *tool.HTTPRequest) (*tool.HTTPResponse, error) {
	r, ok := f[req.URL]
	if !ok {
		return nil, io.ErrUnexpectedEOF
	}
	return r, nil
}

func page(status int, ctype, body string) *tool.HTTPResponse {
	return &tool.HTTPResponse{Status: status, Header: map[string]string{"content-type": ctype}, Body: io.NopCloser(strings.NewReader(body))}
}

func TestWebfetch(t *testing.T) {
	html := `<!doctype html><html><head><title>T</title><style>p{}</style></head><body>
<script>var x = "<p>hidden</p>";</script>
<h1>Hello &amp; welcome</h1>
<p>Some <b>bold</b> and <a href="/x">a link</a>.</p>
<ul><li>one</li><li>two</li></ul>
<pre>code  kept
  as is</pre>
</body></html>`
	tests := []struct {
		name    string
		resp    *tool.HTTPResponse
		args    map[string]any
		want    string
		isError bool
	}{
		{"markdown", page(200, "text/html; charset=utf-8", html), nil,
			"# Hello & welcome\n\nSome **bold** and [a link](/x).\n\n- one\n- two\n\n```\ncode  kept\n  as is\n```", false},
		{"text", page(200, "text/html", html), map[string]any{"format": "text"},
			"Hello & welcome\n\nSome bold and a link.\n\n- one\n- two\n\ncode  kept\n  as is", false},
		{"html", page(200, "text/html", "<p>x</p>"), map[string]any{"format": "html"}, "<p>x</p>", false},
		{"plain", page(200, "text/plain", "just text"), nil, "just text", false},
		{"not found", page(404, "text/plain", "gone"), nil, "HTTP 404: gone", true},
		{"cap", page(200, "text/plain", strings.Repeat("a", 40)), nil, strings.Repeat("a", 32) + "\n\n[cut off: the page is longer than 32 bytes]", false},
		{"bad format", page(200, "text/plain", ""), map[string]any{"format": "pdf"}, "format must be", true},
		{"bad scheme", nil, map[string]any{"url": "file:///etc/passwd"}, "want http or https", true},
		{"transport error", nil, map[string]any{"url": "https://unreachable.test/"}, "GET https://unreachable.test/", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			web := fakeWeb{"https://site.test/": tc.resp}
			tk := kitOf(tool.BuiltinsConfig{Transport: web, MaxFetchBytes: 32 + 1000*boolInt(tc.name != "cap")})
			args := map[string]any{"url": "https://site.test/"}
			for k, v := range tc.args {
				args[k] = v
			}
			res := execTool(t, tk, "webfetch", args)
			if res.IsError != tc.isError || !strings.Contains(res.Output, tc.want) {
				t.Fatalf("webfetch = %q (isError %v), want %q", res.Output, res.IsError, tc.want)
			}
			if !tc.isError && tc.name == "markdown" && strings.Contains(res.Output, "hidden") {
				t.Fatal("script content leaked")
			}
		})
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func TestHTMLToMarkdownOddInput(t *testing.T) {
	for _, in := range []string{"", "<", "<<>>", "<a href=", "text &amp", "&#99999999;", "<ol><li>a<li>b</ol>", "</ul></ul></pre>", "<!-- unclosed"} {
		_ = htmlToMarkdown(in, true) // must not panic
		_ = htmlToMarkdown(in, false)
	}
	if got := htmlToMarkdown("<ol><li>a</li><li>b</li></ol><p>x&nbsp;y &#65;&#x42;</p>", true); got != "1. a\n2. b\n\nx y AB" {
		t.Fatalf("got %q", got)
	}
	if got := htmlToMarkdown("<h1>A</h1><h6>S</h6><ul><li>a<ul><li>b<ol><li>c</li></ol></li></ul></li><li>d</li></ul>", true); got != "# A\n\n###### S\n\n- a\n  - b\n    1. c\n- d" {
		t.Fatalf("got %q", got)
	}
}
