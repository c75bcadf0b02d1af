//go:build !js

package agents

import (
	"os"
	"strings"
	"testing"
)

// TestDocsShowTheExample keeps the Go block of docs/agents.md identical to
// the body of Example (between its docs:begin and docs:end markers), so the
// documented code is the code the tests run.
func TestDocsShowTheExample(t *testing.T) {
	doc, err := os.ReadFile("../../docs/agents.md")
	if err != nil {
		t.Fatal(err)
	}
	ex, err := os.ReadFile("example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	_, block, ok := strings.Cut(string(doc), "<!-- example:go -->\n```go\n")
	if !ok {
		t.Fatal("docs/agents.md has no example:go block")
	}
	block, _, _ = strings.Cut(block, "```")
	_, body, _ := strings.Cut(string(ex), "// docs:begin\n")
	body, _, _ = strings.Cut(body, "\t// docs:end")
	var want strings.Builder
	for _, line := range strings.SplitAfter(body, "\n") {
		want.WriteString(strings.TrimPrefix(line, "\t"))
	}
	if block != want.String() {
		t.Errorf("docs/agents.md's Go block differs from Example:\n--- docs\n%s\n--- example\n%s", block, want.String())
	}
}
