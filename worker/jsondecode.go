package worker

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tidwall/gjson"
	"github.com/toolnexus/wasm/internal/jsonx"
)

// The Worker decodes JSON with gjson: encoding/json is not linked into the
// wasm builds (about 170 KB gzip). The helpers here give the decoders in
// requests.go the behaviour the Worker had with encoding/json, which its
// clients may rely on: keys match field names case-insensitively, a
// repeated key overwrites (merging into an object already decoded), null
// leaves a field as it is (nil for lists, maps and pointers), and type
// errors read as encoding/json's ("json: cannot unmarshal number into Go
// struct field runRequest.prompt of type string"). Syntax errors do not
// name the offending byte. Unlike encoding/json (10000), nesting deeper
// than jsonx.MaxDepth (1000) is refused, and before anything recursive
// reads the body: under js/wasm gjson's validation of ~9000 levels
// overflowed the engine's stack and left the Go instance deadlocked.

// maxJSONDepth is how deeply a request body may nest (jsonx.MaxDepth).
const maxJSONDepth = jsonx.MaxDepth

var (
	errJSONSyntax   = errors.New("invalid JSON syntax")
	errJSONDepth    = &jsonx.DepthError{Max: maxJSONDepth} // errors.Is finds jsonx.ErrTooDeep
	errJSONTrailing = errors.New("unexpected data after the JSON object")
)

// jsonBody is the first JSON value of a request body. Trailing says that
// more than space follows it; as with encoding/json's Decoder.More, a
// closing ']' or '}' after the value does not count.
type jsonBody struct {
	Value    gjson.Result
	Trailing bool
}

// readJSONBody reads the whole body (the handler's MaxBytesReader bounds
// it: a *http.MaxBytesError comes back wrapped) and finds its first JSON
// value. An empty or all-space body is io.EOF.
func readJSONBody(r *http.Request) (jsonBody, error) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return jsonBody{}, fmt.Errorf("read body: %w", err)
	}
	return firstJSONValue(body)
}

// firstJSONValue finds the first JSON value in body and checks its syntax.
func firstJSONValue(body []byte) (jsonBody, error) {
	i := skipJSONSpace(body, 0)
	if i == len(body) {
		return jsonBody{}, io.EOF
	}
	end, err := jsonValueEnd(body, i)
	if err != nil {
		return jsonBody{}, err
	}
	raw := body[i:end]
	if err := checkJSON(raw); err != nil {
		return jsonBody{}, err
	}
	j := skipJSONSpace(body, end)
	return jsonBody{Value: gjson.ParseBytes(raw), Trailing: j < len(body) && body[j] != ']' && body[j] != '}'}, nil
}

// checkJSON reports whether b is one JSON value (space around it allowed)
// nested no deeper than maxJSONDepth. The depth is checked first, in one
// iterative pass: gjson's validation recurses per level.
func checkJSON(b []byte) error { return checkJSONWithin(b, maxJSONDepth) }

// checkJSONWithin is checkJSON with another depth limit, for JSON the
// Worker wrapped around values it accepted at maxJSONDepth (a state
// token's transcript, a stored conversation).
func checkJSONWithin(b []byte, maxDepth int) error {
	if jsonx.CheckDepth(b, maxDepth) != nil {
		if maxDepth == maxJSONDepth {
			return errJSONDepth
		}
		return &jsonx.DepthError{Max: maxDepth}
	}
	if !gjson.ValidBytes(b) {
		return errJSONSyntax
	}
	return nil
}

// validJSON is encoding/json's Valid.
func validJSON(b []byte) bool { return checkJSON(b) == nil }

func skipJSONSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// jsonValueEnd returns where the value starting at b[i] ends: a closing
// bracket at depth 0, a closing quote, or the end of a number or literal.
// The value is not validated; an incomplete one ends at len(b).
func jsonValueEnd(b []byte, i int) (int, error) {
	switch c := b[i]; {
	case c == '{' || c == '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				j = jsonStringEnd(b, j) - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1, nil
				}
			}
		}
		return len(b), nil
	case c == '"':
		return jsonStringEnd(b, i), nil
	case c == '-' || c >= '0' && c <= '9':
		return jsonNumberEnd(b, i)
	case c == 't' || c == 'f' || c == 'n':
		for _, lit := range []string{"true", "false", "null"} {
			if lit[0] == c {
				if len(b)-i < len(lit) || string(b[i:i+len(lit)]) != lit {
					return 0, errJSONSyntax
				}
				return i + len(lit), nil
			}
		}
	}
	return 0, errJSONSyntax
}

// jsonStringEnd returns the index after the closing quote of the string
// starting at b[i], or len(b).
func jsonStringEnd(b []byte, i int) int {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return len(b)
}

// jsonNumberEnd returns the end of the number starting at b[i]; a number
// cut short (such as "1." or "-") is a syntax error.
func jsonNumberEnd(b []byte, i int) (int, error) {
	digits := func(j int) (int, bool) {
		k := j
		for k < len(b) && b[k] >= '0' && b[k] <= '9' {
			k++
		}
		return k, k > j
	}
	j := i
	if b[j] == '-' {
		j++
	}
	switch {
	case j < len(b) && b[j] == '0':
		j++
	default:
		var ok bool
		if j, ok = digits(j); !ok {
			return 0, errJSONSyntax
		}
	}
	if j < len(b) && b[j] == '.' {
		var ok bool
		if j, ok = digits(j + 1); !ok {
			return 0, errJSONSyntax
		}
	}
	if j < len(b) && (b[j] == 'e' || b[j] == 'E') {
		j++
		if j < len(b) && (b[j] == '+' || b[j] == '-') {
			j++
		}
		var ok bool
		if j, ok = digits(j); !ok {
			return 0, errJSONSyntax
		}
	}
	return j, nil
}

// jsonString is the value of a validated JSON string as encoding/json
// decodes it. gjson has unescaped it already (an unpaired surrogate is
// U+FFFD, as there); each byte of invalid UTF-8 becomes U+FFFD too.
func jsonString(v gjson.Result) string {
	if utf8.ValidString(v.Str) {
		return v.Str
	}
	b := make([]byte, 0, len(v.Str)+8)
	for _, r := range v.Str { // an invalid byte ranges as one utf8.RuneError
		b = utf8.AppendRune(b, r)
	}
	return string(b)
}

// jsonKind names a value's JSON type as encoding/json's type errors do.
func jsonKind(v gjson.Result) string {
	switch v.Type {
	case gjson.String:
		return "string"
	case gjson.Number:
		return "number"
	case gjson.True, gjson.False:
		return "bool"
	case gjson.Null:
		return "null"
	}
	if v.IsArray() {
		return "array"
	}
	return "object"
}

// jsonField is where a value is being decoded, for encoding/json's type
// error text: the innermost struct's type name and the field names from
// the top. The zero jsonField is the top-level value.
type jsonField struct {
	structName string
	path       []string
}

// child is the field name of the struct named structName, below f.
func (f jsonField) child(structName, name string) jsonField {
	path := make([]string, len(f.path), len(f.path)+1)
	copy(path, f.path)
	return jsonField{structName: structName, path: append(path, name)}
}

// typeError is encoding/json's *UnmarshalTypeError message for a value
// (its kind, or "number 1.5" for a number that does not fit) that cannot
// go into a Go value of type goType.
func (f jsonField) typeError(value, goType string) error {
	if f.path == nil {
		return fmt.Errorf("json: cannot unmarshal %s into Go value of type %s", value, goType)
	}
	return fmt.Errorf("json: cannot unmarshal %s into Go struct field %s.%s of type %s", value, f.structName, strings.Join(f.path, "."), goType)
}

// jsonFieldSetter decodes one field's value.
type jsonFieldSetter struct {
	name string
	set  func(v gjson.Result, at jsonField) error
}

// decodeJSONStruct decodes v into a struct described by fields: null
// changes nothing; an object's keys are matched in order, case-
// insensitively; unknown keys are an error when strict. The first error
// is returned. goType and structName are the struct's reflect String and
// Name, for error texts.
func decodeJSONStruct(v gjson.Result, at jsonField, goType, structName string, strict bool, fields []jsonFieldSetter) error {
	switch {
	case v.Type == gjson.Null:
		return nil
	case !v.IsObject():
		return at.typeError(jsonKind(v), goType)
	}
	var err error
	v.ForEach(func(k, val gjson.Result) bool {
		key := jsonString(k)
		for _, f := range fields {
			if strings.EqualFold(f.name, key) {
				err = f.set(val, at.child(structName, f.name))
				return err == nil
			}
		}
		if strict {
			err = fmt.Errorf("json: unknown field %q", key)
		}
		return err == nil
	})
	return err
}

// The field setters: each is how encoding/json fills a Go value of the
// kind from a JSON value.

func setJSONString(dst *string) func(gjson.Result, jsonField) error {
	return func(v gjson.Result, at jsonField) error {
		switch v.Type {
		case gjson.Null:
		case gjson.String:
			*dst = jsonString(v)
		default:
			return at.typeError(jsonKind(v), "string")
		}
		return nil
	}
}

func setJSONBool(dst *bool) func(gjson.Result, jsonField) error {
	return func(v gjson.Result, at jsonField) error {
		switch v.Type {
		case gjson.Null:
		case gjson.True, gjson.False:
			*dst = v.Type == gjson.True
		default:
			return at.typeError(jsonKind(v), "bool")
		}
		return nil
	}
}

func setJSONBoolPtr(dst **bool) func(gjson.Result, jsonField) error {
	return func(v gjson.Result, at jsonField) error {
		switch v.Type {
		case gjson.Null:
			*dst = nil
		case gjson.True, gjson.False:
			b := v.Type == gjson.True
			*dst = &b
		default:
			return at.typeError(jsonKind(v), "bool")
		}
		return nil
	}
}

// setJSONInt64 fills an integer of the given Go type and bit size; a
// number with a fraction or exponent, or out of range, is a type error.
func setJSONInt64(dst *int64, goType string, bits int) func(gjson.Result, jsonField) error {
	return func(v gjson.Result, at jsonField) error {
		switch v.Type {
		case gjson.Null:
		case gjson.Number:
			n, err := strconv.ParseInt(v.Raw, 10, bits)
			if err != nil {
				return at.typeError("number "+v.Raw, goType)
			}
			*dst = n
		default:
			return at.typeError(jsonKind(v), goType)
		}
		return nil
	}
}

func setJSONInt(dst *int) func(gjson.Result, jsonField) error {
	return func(v gjson.Result, at jsonField) error {
		n := int64(*dst)
		if err := setJSONInt64(&n, "int", strconv.IntSize)(v, at); err != nil {
			return err
		}
		*dst = int(n)
		return nil
	}
}

func setJSONIntPtr(dst **int) func(gjson.Result, jsonField) error {
	return func(v gjson.Result, at jsonField) error {
		if v.Type == gjson.Null {
			*dst = nil
			return nil
		}
		var n int64
		if *dst != nil {
			n = int64(**dst)
		}
		if err := setJSONInt64(&n, "int", strconv.IntSize)(v, at); err != nil {
			return err
		}
		i := int(n)
		*dst = &i
		return nil
	}
}

// setJSONRawList fills a []json.RawMessage: each element's text as it is.
func setJSONRawList(dst *[]jsonRaw) func(gjson.Result, jsonField) error {
	return func(v gjson.Result, at jsonField) error {
		switch {
		case v.Type == gjson.Null:
			*dst = nil
		case v.IsArray():
			out := make([]jsonRaw, 0, len(*dst))
			v.ForEach(func(_, e gjson.Result) bool {
				out = append(out, jsonRaw(e.Raw))
				return true
			})
			*dst = out
		default:
			return at.typeError(jsonKind(v), "[]json.RawMessage")
		}
		return nil
	}
}

// setJSONMap fills a map[string]any, merging into one already there.
func setJSONMap(dst *map[string]any) func(gjson.Result, jsonField) error {
	return func(v gjson.Result, at jsonField) error {
		switch {
		case v.Type == gjson.Null:
			*dst = nil
			return nil
		case !v.IsObject():
			return at.typeError(jsonKind(v), "map[string]interface {}")
		}
		if *dst == nil {
			*dst = map[string]any{}
		}
		var err error
		v.ForEach(func(k, e gjson.Result) bool {
			var x any
			x, err = jsonPlain(e, at)
			(*dst)[jsonString(k)] = x
			return err == nil
		})
		return err
	}
}

// jsonPlain decodes v as encoding/json decodes into an `any`:
// map[string]any, []any, float64, string, bool or nil. A number that does
// not fit a float64 is a type error at field at.
func jsonPlain(v gjson.Result, at jsonField) (any, error) {
	switch v.Type {
	case gjson.Null:
		return nil, nil
	case gjson.True, gjson.False:
		return v.Type == gjson.True, nil
	case gjson.String:
		return jsonString(v), nil
	case gjson.Number:
		f, err := strconv.ParseFloat(v.Raw, 64)
		if err != nil {
			return nil, at.typeError("number "+v.Raw, "float64")
		}
		return f, nil
	}
	var err error
	if v.IsArray() {
		out := []any{}
		v.ForEach(func(_, e gjson.Result) bool {
			var x any
			x, err = jsonPlain(e, at)
			out = append(out, x)
			return err == nil
		})
		return out, err
	}
	out := map[string]any{}
	v.ForEach(func(k, e gjson.Result) bool {
		var x any
		x, err = jsonPlain(e, at)
		out[jsonString(k)] = x
		return err == nil
	})
	return out, err
}
