package gateway

import (
	"reflect"
	"testing"

	"github.com/tidwall/gjson"
	"github.com/toolnexus/wasm/internal/jsonx"
)

// chatReq decodes body as POST /v1/chat/completions does (worker.BeginJSON
// reads and checks it first).
func chatReq(body string) (chatRequest, error) {
	if err := jsonx.CheckDepth([]byte(body), jsonx.MaxDepth); err != nil {
		return chatRequest{}, err
	}
	return decodeChatRequest(gjson.Parse(body))
}

func TestDecodeChatRequest(t *testing.T) {
	chat, err := chatReq(`{"model":"m","messages":[{"role":"user"}],"tools":[],"n":1e2,"temperature":0.2,"stream":true}`)
	if err != nil || chat.Model != "m" || len(chat.Messages) != 1 || chat.Tools == nil || chat.N == nil || *chat.N != 100 || !chat.Stream {
		t.Fatalf("chat: %#v %v", chat, err)
	}
	for _, tt := range []struct{ body, err string }{
		{`{"n":1.5}`, `"n" must be a whole number`},
		{`{"n":"1"}`, `"n" must be a whole number`},
		{`{"n":99999999999999999999}`, `"n" must be a whole number`},
		{`{"model":7}`, `"model" must be a string`},
		{`{"unknown":{"deep":[1]},"model":"m"}`, ``},
	} {
		_, err := chatReq(tt.body)
		if tt.err == "" && err != nil || tt.err != "" && (err == nil || err.Error() != tt.err) {
			t.Errorf("%s: error %v, want %q", tt.body, err, tt.err)
		}
	}
}

func TestChatShapes(t *testing.T) {
	tests := []struct {
		raw  string
		want chatMessageShape
		ok   bool
		tool bool
	}{
		{raw: `{"role":"user","content":"hi"}`, want: chatMessageShape{Role: "user"}, ok: true},
		{raw: `{"role":"assistant","tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{\"a\":1}"}}]}`,
			want: chatMessageShape{Role: "assistant", ToolCalls: []chatToolCallShape{{"f", `{"a":1}`}}}, ok: true},
		{raw: `{"tool_calls":null}`, ok: true},
		{raw: `{"tool_calls":[]}`, want: chatMessageShape{ToolCalls: []chatToolCallShape{}}, ok: true},
		{raw: `null`}, {raw: `[]`}, {raw: `1`}, {raw: `{"role":1}`}, {raw: `{"tool_calls":{}}`}, {raw: `{"tool_calls":[1]}`},
		{raw: `{"tool_calls":[{"function":"f"}]}`}, {raw: `{"tool_calls":[{"function":{"name":1}}]}`},
		{raw: `{"type":"function","function":{"name":"f","parameters":{}}}`, ok: true, tool: true},
		{raw: `{"function":{"name":"f"}}`, ok: true, tool: true},
		{raw: `{"type":"x","function":{"name":"f"}}`, ok: true},
		{raw: `{"type":"function"}`, ok: true}, {raw: `{"function":null}`, ok: true}, {raw: `{"function":{}}`, ok: true},
		{raw: `{"type":1,"function":{"name":"f"}}`, ok: true}, {raw: `{"FUNCTION":{"NAME":"f"}}`, ok: true},
	}
	for _, tt := range tests {
		got, ok := decodeChatMessage([]byte(tt.raw))
		if ok != tt.ok || ok && !reflect.DeepEqual(got, tt.want) {
			t.Errorf("message %s: %#v %v, want %#v %v", tt.raw, got, ok, tt.want, tt.ok)
		}
		if validChatTool([]byte(tt.raw)) != tt.tool {
			t.Errorf("tool %s: %v, want %v", tt.raw, !tt.tool, tt.tool)
		}
	}
}

// FuzzDecodeChat: any body gets a decoded request or an error, and any
// message or tool a shape or false, never a panic (worker's FuzzDecodeBodies).
func FuzzDecodeChat(f *testing.F) {
	for _, s := range []string{``, `{}`, `{"messages":[{"role":"user"}]}`, `[[[`, `{"n":1}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		if len(body) > 1<<16 {
			return
		}
		_, _ = chatReq(body)
		decodeChatMessage([]byte(body))
		validChatTool([]byte(body))
	})
}
