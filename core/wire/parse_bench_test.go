package wire

import "testing"

// BenchmarkOpenAIParse parses the tool-call reply of core's BenchmarkLoop
// (issue 7's scripted model): once per turn in the loop.
func BenchmarkOpenAIParse(b *testing.B) {
	reply := []byte(`{"id":"chatcmpl-1","object":"chat.completion","created":1764633600,"model":"fake-model",` +
		`"choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function",` +
		`"function":{"name":"add","arguments":"{\"a\":1,\"b\":2}"}}]},"finish_reason":"tool_calls"}],` +
		`"usage":{"prompt_tokens":10,"completion_tokens":5,"total_tokens":15}}`)
	b.ReportAllocs()
	for b.Loop() {
		r, err := OpenAI{}.Parse(reply)
		if err != nil || len(r.ToolCalls) != 1 || r.Usage.TotalTokens != 15 || r.Model != "fake-model" {
			b.Fatalf("parse: %+v %v", r, err)
		}
	}
}
