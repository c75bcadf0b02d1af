//go:build !js

package core

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// sdkServerURL returns the URL of an MCP server built with the official
// SDK: $TOOLNEXUS_MCP_URL when tests/mcp.test.mjs runs this test, else one
// started here from tests/mcp-server.mjs (stopped by t.Cleanup). It skips
// only when Node or the SDK is not installed.
func sdkServerURL(t *testing.T) string {
	t.Helper()
	if u := os.Getenv("TOOLNEXUS_MCP_URL"); u != "" {
		return u
	}
	tests, _ := filepath.Abs(filepath.Join("..", "tests"))
	if _, err := os.Stat(filepath.Join(tests, "node_modules", "@modelcontextprotocol", "sdk")); err != nil {
		t.Skip("tests/node_modules has no @modelcontextprotocol/sdk: run `cd tests && npm ci` to run this test")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: it runs the official MCP SDK server")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	cmd := exec.CommandContext(ctx, node, "mcp-server.mjs")
	cmd.Dir = tests
	cmd.Stderr = os.Stderr
	stdin, _ := cmd.StdinPipe() // closing it stops the server
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatalf("start node mcp-server.mjs: %v", err)
	}
	t.Cleanup(func() {
		stdin.Close()
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
		cancel()
	})
	line := make(chan string, 1)
	go func() {
		s, _ := bufio.NewReader(out).ReadString('\n')
		line <- strings.TrimSpace(s)
	}()
	select {
	case u := <-line:
		if !strings.HasPrefix(u, "http://127.0.0.1:") {
			t.Fatalf("mcp-server.mjs printed %q, want its URL", u)
		}
		return u
	case <-time.After(20 * time.Second):
		t.Fatal("mcp-server.mjs did not print its URL within 20 s")
	}
	return ""
}

// TestMCPAgainstOfficialSDK drives a server built with the official MCP SDK
// from core natively: tool adaptation, structuredContent, an error result,
// elicitation through WaitFor, and the session's DELETE on Close.
func TestMCPAgainstOfficialSDK(t *testing.T) {
	url := sdkServerURL(t)
	var asked []Request
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	tk, err := CreateToolkit(ctx, Options{
		MCP: []byte(`{"mcpServers":{"sdk":{"url":"` + url + `","timeout":10000},"dead":{"url":"http://127.0.0.1:9/mcp","timeout":1000}}}`),
		WaitFor: func(r Request) (Answer, error) {
			asked = append(asked, r)
			if r.Prompt == "How do you like it?" {
				return Answer{ID: r.ID, Ok: true, Data: map[string]any{"rating": "great", "stars": 5, "again": true}}, nil
			}
			return Answer{ID: r.ID, Ok: true, Data: map[string]any{"name": "Ada"}}, nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	st := tk.MCPServers()
	if st["sdk"].Status != MCPConnected || st["sdk"].Tools != 6 || st["sdk"].Transport != "streamable-http" {
		t.Fatalf("sdk status %+v", st["sdk"])
	}
	// The default policy: readOnlyHint runs directly; no annotations or
	// destructiveHint asks first.
	for name, want := range map[string]bool{"sdk_weather": false, "sdk_echo": false, "sdk_greet": true, "sdk_delete_note": true} {
		if tool, _ := tk.Get(name); tool.NeedsApproval != want {
			t.Errorf("%s: NeedsApproval %v, want %v", name, tool.NeedsApproval, want)
		}
	}
	if st["dead"].Status != MCPFailed {
		t.Errorf("dead status %+v", st["dead"])
	}
	tests := []struct {
		tool  string
		args  map[string]any
		want  string
		isErr bool
	}{
		{"sdk_weather", map[string]any{"city": "Oslo"}, `{"city":"Oslo","tempC":21,"sky":"clear"}`, false},
		{"sdk_explode", nil, "the volcano erupted\ntry again later", true},
		{"sdk_echo", map[string]any{"text": "hi there"}, "hi there", false},
		{"sdk_greet", nil, "Hello, Ada!", false},
		{"sdk_survey", nil, `accept: {"again":true,"rating":"great","stars":5}`, false}, // on the GET stream
		{"sdk_weather", map[string]any{"city": 5}, "", true},                            // the SDK rejects the arguments
	}
	for _, tc := range tests {
		res, err := tk.Execute(ctx, tc.tool, tc.args)
		if err != nil || res.IsError != tc.isErr || (tc.want != "" && res.Output != tc.want) {
			t.Errorf("%s(%v): %+v %v", tc.tool, tc.args, res, err)
		}
	}
	if len(asked) != 2 || asked[0].Kind != "input" || asked[0].Prompt != "What is your name?" {
		t.Errorf("elicitation requests: %+v", asked)
	} else if s, _ := asked[0].Data["schema"].(map[string]any); s == nil || mustJSON(s["required"]) != `["name"]` {
		t.Errorf("schema: %+v", asked[0].Data)
	}
	if err := tk.Close(); err != nil {
		t.Fatal(err)
	}
}
