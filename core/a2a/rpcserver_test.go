package a2a_test

import (
	"strings"
	"testing"

	"github.com/toolnexus/wasm/core/a2a"
)

// A server reads nothing deeply before DecodeRequest has checked it, and
// every bad request is a JSON-RPC error with its code.
func TestDecodeRequestRefusesBadInput(t *testing.T) {
	tests := []struct {
		name, body string
		code       int
		id         string
	}{
		{"not JSON", `{not json`, a2a.CodeParseError, "null"},
		{"too deep", `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":` + strings.Repeat(`{"a":`, 40) + `1` + strings.Repeat(`}`, 40) + `}`, a2a.CodeInvalidRequest, "null"},
		{"too large", `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"pad":"` + strings.Repeat("x", 2000) + `"}}`, a2a.CodeInvalidRequest, "null"},
		{"an array", `[1,2]`, a2a.CodeInvalidRequest, "null"},
		{"no version", `{"id":7,"method":"GetTask"}`, a2a.CodeInvalidRequest, "7"},
		{"object id", `{"jsonrpc":"2.0","id":{},"method":"GetTask"}`, a2a.CodeInvalidRequest, "null"},
		{"no method", `{"jsonrpc":"2.0","id":"x"}`, a2a.CodeInvalidRequest, `"x"`},
		{"params a list", `{"jsonrpc":"2.0","id":2,"method":"GetTask","params":[1]}`, a2a.CodeInvalidParams, "2"},
	}
	for _, tt := range tests {
		req, err := a2a.DecodeRequest([]byte(tt.body), 1024)
		if err == nil || err.Code != tt.code || req.ID != tt.id {
			t.Errorf("%s: req %+v err %v, want code %d id %s", tt.name, req, err, tt.code, tt.id)
			continue
		}
		out := string(a2a.AppendError(nil, req.ID, err))
		if !strings.HasPrefix(out, `{"jsonrpc":"2.0","id":`+tt.id+`,"error":{"code":`) {
			t.Errorf("%s: reply %s", tt.name, out)
		}
	}
	req, err := a2a.DecodeRequest([]byte(`{"jsonrpc":"2.0","id":3,"method":"SendMessage","params":{"message":{"parts":[{"kind":"text","text":"a"},{"text":"b"}]}}}`), 0)
	if err != nil || req.Method != "SendMessage" || req.ID != "3" || a2a.MessageText(req.Params) != "a\nb" {
		t.Fatalf("%+v %v", req, err)
	}
	if got := string(a2a.AppendResult(nil, req.ID, []byte(`{"id":"t"}`))); got != `{"jsonrpc":"2.0","id":3,"result":{"id":"t"}}` {
		t.Fatal(got)
	}
}
