package jsonx

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/tidwall/gjson"
)

type readTarget struct {
	S    string
	B    bool
	BP   *bool
	I    int
	I64  int64
	IP   *int
	M    map[string]any
	L    []json.RawMessage
	Nest struct{ X string }
}

func readAll(body string, strict bool) (readTarget, error) {
	var r readTarget
	err := ReadObject(gjson.Parse(body), "", strict,
		Field{"s", String(&r.S)}, Field{"b", Bool(&r.B)}, Field{"bp", BoolPtr(&r.BP)},
		Field{"i", Int(&r.I)}, Field{"i64", Int64(&r.I64)}, Field{"ip", IntPtr(&r.IP)},
		Field{"m", Map(&r.M)}, Field{"l", RawList(&r.L)},
		Field{"nest", Object(true, Field{"x", String(&r.Nest.X)})},
	)
	return r, err
}

func TestReadObject(t *testing.T) {
	f, one := false, 1
	tests := []struct {
		body   string
		strict bool
		want   readTarget
		err    string
	}{
		{body: `{"s":"a","b":true,"bp":false,"i":-3,"i64":9007199254740993,"ip":1,"m":{"k":[1,"x"]},"l":[1, {"a" : 2}],"nest":{"x":"y"}}`, strict: true,
			want: readTarget{S: "a", B: true, BP: &f, I: -3, I64: 9007199254740993, IP: &one, M: map[string]any{"k": []any{1.0, "x"}},
				L: []json.RawMessage{json.RawMessage(`1`), json.RawMessage(`{"a" : 2}`)}, Nest: struct{ X string }{"y"}}},
		{body: `{"s":null,"l":null,"nest":null}`, strict: true},
		{body: `null`, strict: true},
		{body: `{"i":1e2,"s":"a","s":"b"}`, want: readTarget{I: 100, S: "b"}},
		{body: `{"other":1}`},
		{body: `{"other":1}`, strict: true, err: `"other" is not a known field`},
		{body: `{"nest":{"z":1}}`, err: `"nest.z" is not a known field`},
		{body: `{"nest":[]}`, err: `"nest" must be an object`},
		{body: `[]`, err: `the value must be an object`},
		{body: `{"s":1}`, err: `"s" must be a string`},
		{body: `{"b":0}`, err: `"b" must be true or false`},
		{body: `{"bp":"true"}`, err: `"bp" must be true or false`},
		{body: `{"i":1.5}`, err: `"i" must be a whole number`},
		{body: `{"i64":1e300}`, err: `"i64" must be a whole number`},
		{body: `{"ip":"1"}`, err: `"ip" must be a whole number`},
		{body: `{"m":[]}`, err: `"m" must be an object`},
		{body: `{"l":{}}`, err: `"l" must be an array`},
	}
	for _, tt := range tests {
		got, err := readAll(tt.body, tt.strict)
		switch {
		case tt.err != "":
			if err == nil || err.Error() != tt.err {
				t.Errorf("%s: error %v, want %s", tt.body, err, tt.err)
			}
		case err != nil:
			t.Errorf("%s: %v", tt.body, err)
		case !reflect.DeepEqual(got, tt.want):
			t.Errorf("%s:\n got %#v\nwant %#v", tt.body, got, tt.want)
		}
	}
}

func TestReadStringRepairsUTF8(t *testing.T) {
	var s string
	if err := String(&s)(gjson.Parse("\"a\xffb\""), "s"); err != nil || s != "a\uFFFDb" {
		t.Fatalf("%q %v", s, err)
	}
}
