package worker

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/internal/jsonx"
)

// The decoders replaced encoding/json (not linked into the wasm builds).
// These tests hold them to what encoding/json did: the reference decoders
// below are the Worker's former code.

// stdDecodeBody is the former decodeBody / decodeLenient (without the
// body-size handling, which both do by reading from a MaxBytesReader).
func stdDecodeBody(body string, v any, strict bool) error {
	dec := json.NewDecoder(strings.NewReader(body))
	if strict {
		dec.DisallowUnknownFields()
	}
	err := dec.Decode(v)
	if err == nil && dec.More() {
		err = errors.New("unexpected data after the JSON object")
	}
	return err
}

// isSyntaxError tells the encoding/json errors whose text the gjson
// decoders do not reproduce (they say "invalid JSON syntax").
func isSyntaxError(err error) bool {
	var se *json.SyntaxError
	return errors.As(err, &se) || errors.Is(err, io.ErrUnexpectedEOF)
}

// tooDeep reports JSON that nests deeper than max: the decoders refuse it
// where encoding/json, whose limit is 10000, may not.
func tooDeep(b []byte, max int) bool { return jsonx.CheckDepth(b, max) != nil }

// newDecodeBody is the new path: first value, decode, trailing check.
func newDecodeBody(body string, decode func(jsonBody) (any, error)) (any, error) {
	b, err := firstJSONValue([]byte(body))
	if err != nil {
		return nil, err
	}
	v, err := decode(b)
	if err == nil && b.Trailing {
		err = errJSONTrailing
	}
	return v, err
}

type bodyRoute struct {
	name   string
	strict bool
	std    func() any // a new pointer to decode into
	decode func(jsonBody) (any, error)
}

var bodyRoutes = []bodyRoute{
	{"run", true, func() any { return new(runRequest) }, func(b jsonBody) (any, error) {
		r, err := decodeRunRequest(b.Value)
		return &r, err
	}},
	{"resume", true, func() any { return new(resumeRequest) }, func(b jsonBody) (any, error) {
		r, err := decodeResumeRequest(b.Value)
		return &r, err
	}},
	{"chat", false, func() any { return new(chatRequest) }, func(b jsonBody) (any, error) {
		r, err := decodeChatRequest(b.Value)
		return &r, err
	}},
}

// compareBody checks one body on every route against encoding/json.
func compareBody(t *testing.T, body string) {
	t.Helper()
	for _, rt := range bodyRoutes {
		want := rt.std()
		wantErr := stdDecodeBody(body, want, rt.strict)
		got, gotErr := newDecodeBody(body, rt.decode)
		switch {
		case errors.Is(gotErr, errJSONDepth) && tooDeep([]byte(body), maxJSONDepth):
			// Refused by our lower limit (encoding/json allows 10000).
		case wantErr == nil && gotErr == nil:
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s %q:\n got %#v\nwant %#v", rt.name, body, got, want)
			}
		case wantErr == nil || gotErr == nil:
			t.Errorf("%s %q: error %v, encoding/json's %v", rt.name, body, gotErr, wantErr)
		case errors.Is(wantErr, io.EOF) != errors.Is(gotErr, io.EOF):
			t.Errorf("%s %q: error %v, encoding/json's %v (empty body)", rt.name, body, gotErr, wantErr)
		case isSyntaxError(wantErr):
			if !errors.Is(gotErr, errJSONSyntax) && !errors.Is(gotErr, errJSONDepth) {
				t.Errorf("%s %q: error %v, encoding/json's syntax error %v", rt.name, body, gotErr, wantErr)
			}
		case gotErr.Error() != wantErr.Error():
			t.Errorf("%s %q:\n error %v\n  want %v", rt.name, body, gotErr, wantErr)
		}
	}
}

var bodySeeds = []string{
	``, ` `, "\n\t ", `null`, `null x`, `{}`, `[]`, `"x"`, `1`, `-0.5e+3`, `true`, `false`, `tru`, `nul`, `nullx`, `1.`, `-`, `01`, `1x`,
	`{"prompt":`, `{"prompt":"hi"}`, `{"prompt":"hi"} {}`, `{"prompt":"hi"}}`, `{"prompt":"hi"} ]garbage`, `{"prompt":"hi"}x`, `{"prompt":"hi"},`,
	`{"prompt":1}`, `{"prompt":true}`, `{"prompt":{}}`, `{"prompt":[]}`, `{"prompt":null}`, `{"Prompt":"case"}`, `{"PROMPT":"a","prompt":"b"}`,
	`{"promt":"x"}`, `{"prompt":"hi","promt":"x"}`, `{"prompt":1,"promt":"x"}`, `{"promt":"x","prompt":1}`,
	`{"pr\u006fmpt":"esc"}`, `{"\u017ftream":true}`, `{"ſtream":true}`, `{"prompt":"\ud83d\ude00 \ud800 \udc00x \ud800\u0041"}`,
	"{\"prompt\":\"bad \xff utf8 \xe2\x82\"}", "{\"prompt\":\"ctl \x01\"}", `{"prompt":"a\/b\"c\\d\b\f\n\r\t"}`,
	`{"messages":[]}`, `{"messages":null}`, `{"messages":[1,"x",null,{},[], {"a" : [ 1 , 2 ]} ]}`, `{"messages":{}}`, `{"messages":"x"}`, `{"messages":1}`, `{"messages":true}`,
	`{"messages":[{"role":"user"}],"messages":[]}`, `{"stream":true}`, `{"stream":"true"}`, `{"stream":1}`, `{"stream":null}`, `{"conversation":"c1"}`, `{"conversation":5}`,
	`{"state":"s","answer":{"id":"x","ok":true}}`, `{"state":1}`, `{"answer":null}`, `{"answer":"x"}`, `{"answer":[]}`, `{"answer":1}`, `{"answer":true}`,
	`{"answer":{"ok":"true"}}`, `{"answer":{"ok":null}}`, `{"answer":{"ok":1}}`, `{"answer":{"zz":1}}`, `{"answer":{"ID":"a","Ok":false,"Reason":"r"}}`,
	`{"answer":{"id":"a"},"answer":{"ok":true}}`, `{"answer":{"id":"a"},"answer":null,"answer":{"ok":true}}`,
	`{"answer":{"data":{"a":1,"b":[1,"x",null,true,{"c":{}}],"a":2}}}`, `{"answer":{"data":{"a":1},"data":{"b":2}}}`, `{"answer":{"data":[]}}`, `{"answer":{"data":"x"}}`,
	`{"answer":{"data":{"x":1e400}}}`, `{"answer":{"data":{"x":{"y":[1e400]}}}}`, `{"answer":{"data":{"x":-1e-400}}}`, `{"answer":{"data":null}}`,
	`{"model":"m","messages":[{"role":"user","content":"hi"}],"tools":[],"n":1,"temperature":0.2}`,
	`{"n":1.5}`, `{"n":"1"}`, `{"n":1e2}`, `{"n":99999999999999999999}`, `{"n":-3}`, `{"n":null}`, `{"n":2,"n":null}`, `{"tools":{}}`, `{"model":7}`,
	`{"unknown":{"deep":[1,2,{"x":"y"}]},"model":"m"}`, `{"a":1,"a":2}`, `{"prompt":"a",}`, `{"prompt" "a"}`, `{'prompt':'a'}`, `{"prompt":"a"`,
	`{"prompt":"x","messages":[` + strings.Repeat("[", 10001) + strings.Repeat("]", 10001) + `]}`,
	`{"prompt":"x","messages":[` + strings.Repeat("[", 9999) + strings.Repeat("]", 9999) + `]}`,
	`{"prompt":"x","messages":[{"x":"]}"}]}`, ` {"prompt":"lead"} `, `{"prompt":"a"}` + "\n" + `{"prompt":"b"}`,
}

func TestDecodeBodiesMatchEncodingJSON(t *testing.T) {
	for _, body := range bodySeeds {
		compareBody(t, body)
	}
}

func FuzzDecodeBodies(f *testing.F) {
	for _, s := range bodySeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		if len(body) > 1<<16 {
			return
		}
		compareBody(t, body)
	})
}

// TestDecodeErrorTexts pins the texts the API answers after "request body
// is not valid JSON for this route: ".
func TestDecodeErrorTexts(t *testing.T) {
	answerType := `struct { ID string "json:\"id\""; Ok *bool "json:\"ok\""; Data map[string]interface {} "json:\"data\""; Reason string "json:\"reason\"" }`
	tests := []struct {
		route int // index in bodyRoutes
		body  string
		want  string
	}{
		{0, `[]`, "json: cannot unmarshal array into Go value of type worker.runRequest"},
		{0, `{"prompt":1}`, "json: cannot unmarshal number into Go struct field runRequest.prompt of type string"},
		{0, `{"messages":{}}`, "json: cannot unmarshal object into Go struct field runRequest.messages of type []json.RawMessage"},
		{0, `{"prompt":"hi","promt":"x"}`, `json: unknown field "promt"`},
		{0, `{"prompt":"hi"} {}`, "unexpected data after the JSON object"},
		{0, `{"prompt":`, "invalid JSON syntax"},
		{0, `{"prompt":"x","messages":[` + strings.Repeat("[", 10001) + strings.Repeat("]", 10001) + `]}`, "JSON nested more than 1000 levels deep"},
		{0, `{"prompt":"x","messages":[` + strings.Repeat("[", 999) + strings.Repeat("]", 999) + `]}`, "JSON nested more than 1000 levels deep"},
		{1, `{"answer":"x"}`, "json: cannot unmarshal string into Go struct field resumeRequest.answer of type " + answerType},
		{1, `{"answer":{"ok":"true"}}`, "json: cannot unmarshal string into Go struct field .answer.ok of type bool"},
		{1, `{"answer":{"data":{"x":[1e400]}}}`, "json: cannot unmarshal number 1e400 into Go struct field .answer.data of type float64"},
		{1, `{"answer":{"zz":1}}`, `json: unknown field "zz"`},
		{2, `{"n":1.5}`, "json: cannot unmarshal number 1.5 into Go struct field chatRequest.n of type int"},
		{2, `{"stream":"yes"}`, "json: cannot unmarshal string into Go struct field chatRequest.stream of type bool"},
	}
	for _, tt := range tests {
		rt := bodyRoutes[tt.route]
		_, err := newDecodeBody(tt.body, rt.decode)
		if err == nil || err.Error() != tt.want {
			t.Errorf("%s %.60q: error %v, want %s", rt.name, tt.body, err, tt.want)
		}
	}
	if _, err := firstJSONValue([]byte(" \n")); !errors.Is(err, io.EOF) {
		t.Errorf("blank body: %v, want io.EOF", err)
	}
}

// stdChatMessage is the former validateChat's per-message decoding.
func stdChatMessage(raw []byte) (chatMessageShape, bool) {
	var m struct {
		Role      string `json:"role"`
		ToolCalls []struct {
			Function struct {
				Name      string `json:"name"`
				Arguments string `json:"arguments"`
			} `json:"function"`
		} `json:"tool_calls"`
	}
	if err := json.Unmarshal(raw, &m); err != nil || !bytes.HasPrefix(bytes.TrimSpace(raw), []byte("{")) {
		return chatMessageShape{}, false
	}
	out := chatMessageShape{Role: m.Role}
	if m.ToolCalls != nil {
		out.ToolCalls = []chatToolCallShape{}
	}
	for _, tc := range m.ToolCalls {
		out.ToolCalls = append(out.ToolCalls, chatToolCallShape{tc.Function.Name, tc.Function.Arguments})
	}
	return out, true
}

// stdChatTool is the former validateChat's per-tool check.
func stdChatTool(raw []byte) bool {
	var t struct {
		Type     string `json:"type"`
		Function *struct {
			Name string `json:"name"`
		} `json:"function"`
	}
	err := json.Unmarshal(raw, &t)
	return !(err != nil || t.Function == nil || t.Function.Name == "" || (t.Type != "" && t.Type != "function"))
}

var chatSeeds = []string{
	`{"role":"user","content":"hi"}`, `null`, `[]`, `"x"`, `1`, `{}`, `{"role":1}`, `{"role":null}`, `{"Role":"tool"}`,
	`{"role":"assistant","tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{\"a\":1}"}}]}`,
	`{"tool_calls":null}`, `{"tool_calls":{}}`, `{"tool_calls":[null]}`, `{"tool_calls":[1]}`, `{"tool_calls":[{"function":null}]}`,
	`{"tool_calls":[{"function":"f"}]}`, `{"tool_calls":[{"function":{"name":1}}]}`, `{"tool_calls":[{"function":{"arguments":{}}}]}`,
	`{"tool_calls":[{"function":{"name":"a"}},{"function":{"name":"b"}}],"tool_calls":[{"function":{"arguments":"x"}}]}`,
	`{"tool_calls":[{"function":{"name":"a"}},{"function":{"name":"b"}}],"tool_calls":[{}],"tool_calls":[{},{}]}`,
	`{"tool_calls":[{"function":{"name":"a"}}],"tool_calls":[],"tool_calls":[{}]}`,
	`{"type":"function","function":{"name":"f","parameters":{}}}`, `{"function":{"name":"f"}}`, `{"type":"x","function":{"name":"f"}}`,
	`{"type":"function"}`, `{"function":null}`, `{"function":{}}`, `{"function":{"name":"f"},"function":null,"function":{}}`,
	`{"function":{"name":"f"},"function":{}}`, `{"type":1,"function":{"name":"f"}}`, `{"FUNCTION":{"NAME":"f"}}`,
}

func TestChatShapesMatchEncodingJSON(t *testing.T) {
	for _, s := range chatSeeds {
		checkChatShapes(t, []byte(s))
	}
}

func FuzzChatShapes(f *testing.F) {
	for _, s := range chatSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		// validateChat sees elements of a decoded array: valid JSON only.
		if !json.Valid([]byte(s)) || len(s) > 1<<16 {
			return
		}
		checkChatShapes(t, []byte(strings.TrimSpace(s)))
	})
}

func checkChatShapes(t *testing.T, raw []byte) {
	t.Helper()
	got, gotOK := decodeChatMessage(raw)
	want, wantOK := stdChatMessage(raw)
	if gotOK != wantOK || gotOK && !reflect.DeepEqual(got, want) {
		t.Errorf("message %s: %#v %v, encoding/json %#v %v", raw, got, gotOK, want, wantOK)
	}
	if g, w := validChatTool(raw), stdChatTool(raw); g != w {
		t.Errorf("tool %s: %v, encoding/json %v", raw, g, w)
	}
	if g, w := validJSON(raw), json.Valid(raw); g != w && !(w && tooDeep(raw, maxJSONDepth)) {
		t.Errorf("valid %s: %v, encoding/json %v", raw, g, w)
	}
}

var payloadSeeds = []string{
	`{"id":"st_1","iat":1,"exp":1900000000,"style":"openai","pending":{"id":"req_1","kind":"approval","data":{"tool":"refund"}},"messages":[{"role":"user"}, 1 ,null]}`,
	`{"id":"st_1","pending":null}`, `{"id":"st_1","pending":"x"}`, `{"id":"st_1","pending":{"id":1}}`, `{"id":"st_1","pending":{"id":"a"},"pending":{"kind":"b"}}`,
	`{"id":"st_1","exp":1.5}`, `{"id":"st_1","exp":"1"}`, `{"id":"st_1","exp":1e3}`, `{"id":"st_1","exp":-1}`, `{"id":"st_1","exp":99999999999999999999}`,
	`{"ID":"upper","EXP":5,"Style":"s"}`, `{"id":"a"} `, `{"id":"a"} {}`, `{"id":"a"}}`, `null`, `[]`, `"x"`, ``, "\xff\xfe", `{"messages":{}}`, `{"messages":[]}`,
	`{"v":1,"messages":[{"role":"user"}]}`, `{"v":"1"}`, `{"v":1.0}`, `{"v":2,"messages":null}`, `{"V":1,"Messages":[1]}`, `{"other":true}`,
}

func TestPayloadsMatchEncodingJSON(t *testing.T) {
	for _, s := range payloadSeeds {
		checkPayload(t, []byte(s))
	}
}

func FuzzPayloads(f *testing.F) {
	for _, s := range payloadSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) > 1<<16 {
			return
		}
		checkPayload(t, b)
	})
}

func checkPayload(t *testing.T, b []byte) {
	t.Helper()
	var want State
	wantErr := json.Unmarshal(b, &want)
	got, gotErr := decodeState(b)
	deep := tooDeep(b, maxJSONDepth+jsonx.WrapSlack)
	if deep && gotErr == nil {
		t.Errorf("state %.60q: accepted JSON nested deeper than %d", b, maxJSONDepth+jsonx.WrapSlack)
	}
	if !deep && ((gotErr == nil) != (wantErr == nil) || gotErr == nil && !reflect.DeepEqual(got, want)) {
		t.Errorf("state %q: %#v %v, encoding/json %#v %v", b, got, gotErr, want, wantErr)
	}
	var wantSC storedConversation
	wantErr = json.Unmarshal(b, &wantSC)
	gotSC, gotErr := decodeStoredConversation(b)
	if deep && gotErr == nil {
		t.Errorf("conversation %.60q: accepted JSON nested deeper than %d", b, maxJSONDepth+jsonx.WrapSlack)
	}
	if !deep && ((gotErr == nil) != (wantErr == nil) || gotErr == nil && !reflect.DeepEqual(gotSC, wantSC)) {
		t.Errorf("conversation %q: %#v %v, encoding/json %#v %v", b, gotSC, gotErr, wantSC, wantErr)
	}
}

func TestJSONString(t *testing.T) {
	tests := []struct{ raw, want string }{
		{`""`, ""},
		{`"plain"`, "plain"},
		{`"a\"b\\c\/d\b\f\n\r\t"`, "a\"b\\c/d\b\f\n\r\t"},
		{`"\u00e9\u20AC"`, "é€"},
		{`"\ud83d\ude00"`, "😀"},
		{`"\ud800x"`, "\ufffdx"},
		{`"\udc00\ud800"`, "\ufffd\ufffd"},
		{`"\ud800\u0041"`, "\ufffdA"},
		{"\"\xff\xe2\x82\"", "\ufffd\ufffd\ufffd"},
	}
	for _, tt := range tests {
		var want string
		if err := json.Unmarshal([]byte(tt.raw), &want); err != nil || want != tt.want {
			t.Fatalf("table is wrong for %q: encoding/json gives %q (%v)", tt.raw, want, err)
		}
		if got := jsonString(gjson.Parse(tt.raw)); got != tt.want {
			t.Errorf("jsonString(%q) = %q, want %q", tt.raw, got, tt.want)
		}
	}
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
	res := runResponse{RunResult: core.RunResult{Text: "t", Messages: []any{json.RawMessage(`{"a" : 1}`)}, ToolCalls: []core.ToolRecord{{ID: "c"}}, Status: "pending",
		Pending: &core.Request{ID: "r", Data: map[string]any{"x": 1.5}}}, State: "tn1.x.y"}
	got, err = marshalJSON(res)
	if err != nil {
		t.Fatal(err)
	}
	std, _ := json.Marshal(res)
	if !bytes.Equal(got, std) {
		t.Fatalf("runResponse:\n got %s\nwant %s", got, std)
	}
	ev := rpcMessage{JSONRPC: "2.0", ID: json.RawMessage("[ 1 ,\n2 ]"), Result: map[string]any{"ok": true}}
	got, _ = marshalJSON(ev)
	std, _ = json.Marshal(ev)
	if !bytes.Equal(got, std) {
		t.Fatalf("rpcMessage:\n got %s\nwant %s", got, std)
	}
}
