package worker_test

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/toolnexus/wasm/worker"
	"github.com/toolnexus/wasm/worker/a2aserve"
	"github.com/toolnexus/wasm/worker/gateway"
	"github.com/toolnexus/wasm/worker/mcpserver"
	"github.com/toolnexus/wasm/worker/runs"
	"github.com/toolnexus/wasm/worker/teams"
	"github.com/toolnexus/wasm/worker/uiproto"
)

// TestDocsNameEveryRoute: the route list of the README's Worker section,
// worker/README.md and `go doc ./worker` name every route the Worker (as
// wasm/worker mounts it) serves. The README's list had omitted the gateway,
// the UI stream, durable runs and the MCP server (issue 33).
func TestDocsNameEveryRoute(t *testing.T) {
	h := worker.NewHandler(worker.Options{Getenv: func(string) string { return "" }},
		gateway.Mount, mcpserver.Mount, teams.Mount, uiproto.Mount, runs.Mount, a2aserve.Mount)
	keys := worker.RouteKeys(h)
	if len(keys) < 15 {
		t.Fatalf("only %d routes: %v", len(keys), keys)
	}
	docs := map[string]string{
		"README.md (Cloudflare Worker)": section(t, "../README.md", "## Cloudflare Worker"),
		"worker/README.md":              read(t, "README.md"),
		"worker/doc.go":                 read(t, "doc.go"),
	}
	for _, key := range keys {
		if key == worker.ApproveAssetRoute {
			continue // the approval page's own modules
		}
		// "/v1/runs/{id}" is written /v1/runs/{id}, /v1/runs/<id> or /v1/runs/run_3f…
		re := regexp.MustCompile(regexp.QuoteMeta(key) + `(?:[^/\w{<]|$)`)
		if strings.Contains(key, "{id}") {
			parts := strings.Split(key, "{id}")
			re = regexp.MustCompile(regexp.QuoteMeta(parts[0]) + `(?:\{[^}]*\}|<[^>]*>)` + regexp.QuoteMeta(parts[1]) + `(?:[^/\w]|$)`)
		}
		for name, text := range docs {
			if !re.MatchString(text) {
				t.Errorf("%s does not name %s", name, key)
			}
		}
	}
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// section is the markdown of path from heading to the next heading of its
// level.
func section(t *testing.T, path, heading string) string {
	t.Helper()
	text := read(t, path)
	i := strings.Index(text, "\n"+heading+"\n")
	if i < 0 {
		t.Fatalf("%s has no %q", path, heading)
	}
	rest := text[i+len(heading)+2:]
	if j := strings.Index(rest, "\n## "); j >= 0 {
		rest = rest[:j]
	}
	return rest
}
