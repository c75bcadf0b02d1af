package worker

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/internal/jsonx"

	"github.com/toolnexus/wasm/internal/httpx/nethttp"
)

// decodeBody runs a body through what BeginJSON does: read, check, decode.
func decodeBody[T any](body string, decode func(gjson.Result) (T, error)) (T, error) {
	var zero T
	v, err := ReadJSONBody(nethttp.Request(httptest.NewRequest("POST", "/", strings.NewReader(body))))
	if err != nil {
		return zero, err
	}
	return decode(v)
}

func TestDecodeRunRequest(t *testing.T) {
	tests := []struct {
		body string
		want RunRequest
		err  string
	}{
		{body: `{"prompt":"hi","stream":true,"conversation":"c1","workspace":"w"}`, want: RunRequest{Prompt: "hi", Stream: true, Conversation: "c1", Workspace: "w"}},
		{body: ` {"prompt":"lead"} `, want: RunRequest{Prompt: "lead"}},
		{body: `{"messages":[{"role":"user"}, 1 ,null]}`, want: RunRequest{Messages: []json.RawMessage{json.RawMessage(`{"role":"user"}`), json.RawMessage(`1`), json.RawMessage(`null`)}}},
		{body: `{"messages":[]}`, want: RunRequest{Messages: []json.RawMessage{}}},
		{body: `{"prompt":null,"messages":null}`, want: RunRequest{}},
		{body: `{"prompt":"a","prompt":"b"}`, want: RunRequest{Prompt: "b"}},
		{body: "{\"prompt\":\"bad \xff utf8\"}", want: RunRequest{Prompt: "bad \ufffd utf8"}},
		{body: `{"prompt":"\ud83d\ude00 \ud800x"}`, want: RunRequest{Prompt: "😀 \ufffdx"}},
		{body: ``, err: "request body is empty; send a JSON object"},
		{body: " \n\t", err: "request body is empty; send a JSON object"},
		{body: `[]`, err: "request body must be a JSON object"},
		{body: `"x"`, err: "request body must be a JSON object"},
		{body: `null`, err: "request body must be a JSON object"},
		{body: `{"prompt":1}`, err: `"prompt" must be a string`},
		{body: `{"stream":"true"}`, err: `"stream" must be true or false`},
		{body: `{"messages":{}}`, err: `"messages" must be an array`},
		{body: `{"prompt":"hi","promt":"x"}`, err: `"promt" is not a known field`},
		{body: `{"Prompt":"case"}`, err: `"Prompt" is not a known field`},
		{body: `{"prompt":`, err: "invalid JSON"},
		{body: `{"prompt":"hi"} {}`, err: "invalid JSON"},
		{body: `{"prompt":"a",}`, err: "invalid JSON"},
		{body: `{"prompt":"x","messages":[` + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + `]}`, err: "JSON nested more than 1000 levels deep"},
	}
	for _, tt := range tests {
		got, err := decodeBody(tt.body, DecodeRunRequest)
		switch {
		case tt.err != "" && (err == nil || err.Error() != tt.err):
			t.Errorf("%.60q: error %v, want %q", tt.body, err, tt.err)
		case tt.err == "" && err != nil:
			t.Errorf("%.60q: %v", tt.body, err)
		case tt.err == "" && !reflect.DeepEqual(got, tt.want):
			t.Errorf("%.60q:\n got %#v\nwant %#v", tt.body, got, tt.want)
		}
	}
}

// The chat request's cases are gateway's TestDecodeChatRequest.
func TestDecodeResumeRequest(t *testing.T) {
	yes := true
	req, err := decodeBody(`{"state":"s","answer":{"id":"x","ok":true,"data":{"args":{"order":7}},"reason":"r"}}`, decodeResumeRequest)
	want := resumeRequest{State: "s", Answer: &resumeAnswer{ID: "x", Ok: &yes, Data: map[string]any{"args": map[string]any{"order": 7.0}}, Reason: "r"}}
	if err != nil || !reflect.DeepEqual(req, want) {
		t.Fatalf("resume: %#v %v", req, err)
	}
	if req, err := decodeBody(`{"state":"s"}`, decodeResumeRequest); err != nil || req.Answer != nil {
		t.Fatalf("no answer: %#v %v", req, err)
	}
	for _, tt := range []struct {
		body   string
		decode func(string) error
		err    string
	}{
		{`{"answer":"x"}`, resume, `"answer" must be an object`},
		{`{"answer":{"ok":"true"}}`, resume, `"answer.ok" must be true or false`},
		{`{"answer":{"zz":1}}`, resume, `"answer.zz" is not a known field`},
		{`{"answer":{"data":[]}}`, resume, `"answer.data" must be an object`},
	} {
		err := tt.decode(tt.body)
		if tt.err == "" && err != nil || tt.err != "" && (err == nil || err.Error() != tt.err) {
			t.Errorf("%s: error %v, want %q", tt.body, err, tt.err)
		}
	}
}

func resume(body string) error { _, err := decodeBody(body, decodeResumeRequest); return err }

func TestDecodePayloads(t *testing.T) {
	st, err := decodeState([]byte(`{"id":"st_1","iat":1,"exp":1e3,"style":"openai","ws":"w","pending":{"id":"req_1","kind":"approval","data":{"tool":"refund"}},"messages":[{"role":"user"}],"extra":1}`))
	if err != nil || st.ID != "st_1" || st.IssuedAt != 1 || st.ExpiresAt != 1000 || st.Workspace != "w" || st.Pending.ID != "req_1" || st.Pending.Kind != "approval" || len(st.Messages) != 1 {
		t.Fatalf("state: %#v %v", st, err)
	}
	for _, bad := range []string{``, `null x`, `{"id":"a"} {}`, `{"exp":1.5}`, `{"exp":"1"}`, `{"pending":"x"}`, `{"messages":{}}`, "\xff\xfe",
		`{"messages":[` + strings.Repeat("[", 1100) + strings.Repeat("]", 1100) + `]}`} {
		if _, err := decodeState([]byte(bad)); err == nil || !strings.HasPrefix(err.Error(), "state payload: ") {
			t.Errorf("state %.40q: error %v", bad, err)
		}
	}
	// A transcript accepted at the limit still fits inside the payload.
	deep := `{"id":"a","messages":[` + strings.Repeat("[", jsonx.MaxDepth-1) + strings.Repeat("]", jsonx.MaxDepth-1) + `]}`
	if _, err := decodeState([]byte(deep)); err != nil {
		t.Errorf("a payload around a transcript at the limit: %v", err)
	}
	sc, err := decodeStoredConversation([]byte(`{"v":1,"messages":[{"role":"user"}]}`))
	if err != nil || sc.V != 1 || len(sc.Messages) != 1 {
		t.Fatalf("conversation: %#v %v", sc, err)
	}
	for _, bad := range []string{`{"v":"1"}`, `{"messages":1}`, `{`, `[`} {
		if _, err := decodeStoredConversation([]byte(bad)); err == nil {
			t.Errorf("conversation %q decoded", bad)
		}
	}
}

// FuzzDecodeBodies: any body gets a decoded request or an error, never a
// panic; a decoded prompt is the body's own "prompt" string.
func FuzzDecodeBodies(f *testing.F) {
	for _, s := range []string{``, `{}`, `{"prompt":"hi"}`, `{"answer":{"ok":true}}`, `{"n":1}`, `[[[`, `{"prompt":"\ud800"}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		if len(body) > 1<<16 {
			return
		}
		if req, err := decodeBody(body, DecodeRunRequest); err == nil {
			if p := gjson.Get(body, "prompt"); p.Type == gjson.String && req.Prompt != strings.ToValidUTF8(p.Str, "\ufffd") {
				t.Fatalf("prompt %q from %q", req.Prompt, body)
			}
		} else if errors.Is(err, errEmptyBody) && len(bytes.TrimSpace([]byte(body))) != 0 {
			t.Fatalf("%q called empty", body)
		}
		_, _ = decodeBody(body, decodeResumeRequest)
		_, _ = decodeState([]byte(body))
		_, _ = decodeStoredConversation([]byte(body))
	})
}

func TestMarshalJSONCompacts(t *testing.T) {
	v := map[string]any{
		"messages": []any{json.RawMessage("{\n  \"role\" : \"user\",\n  \"content\": \"a  b\\n\\\" c\"\n}")},
		"text":     "line\nbreak <b>",
	}
	got, err := marshalJSON(v)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"messages":[{"role":"user","content":"a  b\n\" c"}],"text":"line\nbreak <b>"}`
	if string(got) != want {
		t.Fatalf("marshalJSON = %s\nwant %s", got, want)
	}
	// Everything the API answers must still be what encoding/json writes,
	// but for HTML escaping.
	res := RunResponse{RunResult: core.RunResult{Text: "t", Messages: []any{json.RawMessage(`{"a" : 1}`)}, ToolCalls: []core.ToolCall{{ID: "c"}}, Status: "pending",
		Pending: &core.Request{ID: "r", Data: map[string]any{"x": 1.5}}}, State: "tn1.x.y"}
	got, err = marshalJSON(res)
	if err != nil {
		t.Fatal(err)
	}
	std, _ := json.Marshal(res)
	if !bytes.Equal(got, std) {
		t.Fatalf("RunResponse:\n got %s\nwant %s", got, std)
	}
	// mcpserver's TestRPCMessageMarshalsLikeEncodingJSON checks its rpcMessage.
}
