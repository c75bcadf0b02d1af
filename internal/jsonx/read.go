package jsonx

import (
	"encoding/json" // for the RawMessage type only; nothing of the package runs
	"math"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"
)

// Reading typed fields. A request body or a stored record is read into Go
// values field by field from a gjson.Result, with errors in words a caller
// can act on:
//
//	var req struct{ Prompt string; Stream bool }
//	err := jsonx.ReadObject(gjson.Parse(`{"prompt":1}`), "", true,
//		jsonx.Field{Name: "prompt", Read: jsonx.String(&req.Prompt)},
//		jsonx.Field{Name: "stream", Read: jsonx.Bool(&req.Stream)})
//	// err: "prompt" must be a string
//
// Keys match exactly (JSON is case-sensitive; nothing here folds case as
// encoding/json does), a repeated key's last value wins, and null leaves a
// field as it was. The value must have passed Check (or Valid) first: the
// readers recurse as gjson does.

// Reader reads one JSON value into its destination. path names the value
// for errors ("answer.ok"; "" for the top level).
type Reader func(v gjson.Result, path string) error

// Field is one member of an object that ReadObject knows.
type Field struct {
	Name string
	Read Reader
}

// FieldError says which value was wrong and how.
type FieldError struct {
	Path    string // "answer.ok"; "" is the whole value
	Problem string // "must be a boolean", "is not a known field"
}

func (e *FieldError) Error() string {
	if e.Path == "" {
		return "the value " + e.Problem
	}
	return strconv.Quote(e.Path) + " " + e.Problem
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// ReadObject reads the members of the object v into fields. null reads as
// an empty object. With strict, a member no field names is an error.
func ReadObject(v gjson.Result, path string, strict bool, fields ...Field) error {
	if v.Type == gjson.Null {
		return nil
	}
	if !v.IsObject() {
		return &FieldError{path, "must be an object"}
	}
	var err error
	v.ForEach(func(key, value gjson.Result) bool {
		name := key.String()
		for _, f := range fields {
			if f.Name == name {
				if value.Type != gjson.Null {
					err = f.Read(value, join(path, name))
				}
				return err == nil
			}
		}
		if strict {
			err = &FieldError{join(path, name), "is not a known field"}
		}
		return err == nil
	})
	return err
}

// Object reads a nested object with ReadObject.
func Object(strict bool, fields ...Field) Reader {
	return func(v gjson.Result, path string) error { return ReadObject(v, path, strict, fields...) }
}

// String reads a string. Invalid UTF-8 in it becomes U+FFFD.
func String(dst *string) Reader {
	return func(v gjson.Result, path string) error {
		if v.Type != gjson.String {
			return &FieldError{path, "must be a string"}
		}
		*dst = strings.ToValidUTF8(v.Str, "\uFFFD")
		return nil
	}
}

// Bool reads true or false.
func Bool(dst *bool) Reader {
	return func(v gjson.Result, path string) error {
		if v.Type != gjson.True && v.Type != gjson.False {
			return &FieldError{path, "must be true or false"}
		}
		*dst = v.Type == gjson.True
		return nil
	}
}

// BoolPtr reads true or false into a new *bool, so that absent and false
// differ.
func BoolPtr(dst **bool) Reader {
	return func(v gjson.Result, path string) error {
		var b bool
		if err := Bool(&b)(v, path); err != nil {
			return err
		}
		*dst = &b
		return nil
	}
}

// Int64 reads a whole number that fits an int64 (1e2 is 100; 1.5 is not
// whole).
func Int64(dst *int64) Reader {
	return func(v gjson.Result, path string) error {
		if v.Type != gjson.Number {
			return &FieldError{path, "must be a whole number"}
		}
		if n, err := strconv.ParseInt(v.Raw, 10, 64); err == nil {
			*dst = n
			return nil
		}
		f := v.Num
		if f != math.Trunc(f) || f < math.MinInt64 || f >= math.MaxInt64 {
			return &FieldError{path, "must be a whole number"}
		}
		*dst = int64(f)
		return nil
	}
}

// Int reads a whole number that fits an int.
func Int(dst *int) Reader {
	return func(v gjson.Result, path string) error {
		var n int64
		if err := Int64(&n)(v, path); err != nil {
			return err
		}
		if int64(int(n)) != n {
			return &FieldError{path, "must be a whole number"}
		}
		*dst = int(n)
		return nil
	}
}

// IntPtr reads a whole number into a new *int, so that absent and 0 differ.
func IntPtr(dst **int) Reader {
	return func(v gjson.Result, path string) error {
		var n int
		if err := Int(&n)(v, path); err != nil {
			return err
		}
		*dst = &n
		return nil
	}
}

// Map reads an object as plain Go values (map[string]any, []any, float64,
// string, bool, nil).
func Map(dst *map[string]any) Reader {
	return func(v gjson.Result, path string) error {
		if !v.IsObject() {
			return &FieldError{path, "must be an object"}
		}
		*dst, _ = v.Value().(map[string]any)
		return nil
	}
}

// RawList reads an array, keeping each element's text as it arrived.
func RawList(dst *[]json.RawMessage) Reader {
	return func(v gjson.Result, path string) error {
		if !v.IsArray() {
			return &FieldError{path, "must be an array"}
		}
		list := []json.RawMessage{}
		v.ForEach(func(_, e gjson.Result) bool {
			list = append(list, json.RawMessage(e.Raw))
			return true
		})
		*dst = list
		return nil
	}
}
