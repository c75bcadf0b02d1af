//go:build !js

package worker

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/tidwall/gjson"
)

// TestBundledSkill checks that the skill bundled with embed.FS is listed in
// the system prompt and that the skill tool loads it.
func TestBundledSkill(t *testing.T) {
	var mu sync.Mutex
	var systems []string
	llm := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		msgs := gjson.GetBytes(b, "messages").Array()
		mu.Lock()
		systems = append(systems, msgs[0].Get("content").String())
		mu.Unlock()
		last := msgs[len(msgs)-1]
		w.Header().Set("content-type", "application/json")
		if last.Get("role").String() == "tool" {
			io.WriteString(w, `{"choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"loaded: `+jsonSafe(last.Get("content").String())+`"}}]}`)
			return
		}
		io.WriteString(w, `{"choices":[{"index":0,"finish_reason":"tool_calls","message":{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"skill","arguments":"{\"name\":\"refund-policy\"}"}}]}}]}`)
	}))
	defer llm.Close()
	hs := newHarness(t, func(env map[string]string) {
		env["LLM_BASE_URL"] = llm.URL + "/v1"
		env["SYSTEM_PROMPT"] = "You help customers."
		env["SKILLS"] = "on"
	})
	code, body := hs.Post("/v1/run", map[string]any{"prompt": "may I get my money back?"})
	if code != http.StatusOK {
		t.Fatalf("run = %d %v", code, body)
	}
	text, _ := body["text"].(string)
	if tools := decodeMap(t, hs.Do(http.MethodGet, "/v1/tools", "")); !strings.Contains(mustJSON(tools), `"name":"skill"`) {
		t.Fatalf("tools = %v", tools)
	}
	if !strings.Contains(text, "# Refund policy") || !strings.Contains(text, "- reply-template.md") {
		t.Fatalf("the skill tool did not load the bundled skill: %q", text)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(systems) == 0 || !strings.HasPrefix(systems[0], "You help customers.\n\n## Skills") ||
		!strings.Contains(systems[0], "- refund-policy: How to decide and word a refund") {
		t.Fatalf("system prompt = %q", systems)
	}
}

// TestSkillsOffByDefault: without SKILLS=on the tool list is unchanged.
func TestSkillsOffByDefault(t *testing.T) {
	hs := newHarness(t, nil)
	if tools := decodeMap(t, hs.Do(http.MethodGet, "/v1/tools", "")); strings.Contains(mustJSON(tools), `"skill"`) {
		t.Fatalf("tools = %v", tools)
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func jsonSafe(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\t", `\t`, "\r", `\r`)
	return r.Replace(s)
}
