package toolnexus

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"strings"
)

// NativeToolReflect wraps a Go function over a struct as a tool, as the Go
// port does: the input schema comes from T's exported fields and their
// `json` tags (a field is required unless tagged omitempty; `json:"-"` is
// left out), and the model's arguments are decoded into a T before fn runs.
// string → "string", numbers → "number", bool → "boolean", slices and
// arrays → "array", maps → "object", structs → nested objects.
//
// The decoding is core's own (reflection over the decoded arguments), not
// encoding/json: the wasm builds do not link its decoder. An argument of the
// wrong type is an error result the model reads.
//
//	type refund struct {
//		Order  string  `json:"order"`
//		Amount float64 `json:"amount,omitempty"`
//	}
//	tool := NativeToolReflect("refund", "refund an order", func(ctx context.Context, in refund) (string, error) {
//		return "refunded " + in.Order, nil
//	})
func NativeToolReflect[T any](name, description string, fn func(ctx context.Context, in T) (string, error)) Tool {
	schema := structSchema(reflect.TypeFor[T]())
	return NativeTool(name, description, schema, func(ctx context.Context, args map[string]any) (string, error) {
		var in T
		if err := assignValue(reflect.ValueOf(&in).Elem(), args, "arguments"); err != nil {
			return "", err
		}
		return fn(ctx, in)
	})
}

// structSchema is the object schema of struct type t.
func structSchema(t reflect.Type) JSONSchema {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	props := map[string]any{}
	var required []any
	if t.Kind() == reflect.Struct {
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			name, omitempty, ok := jsonField(f)
			if !ok {
				continue
			}
			props[name] = fieldSchema(f.Type)
			if !omitempty {
				required = append(required, name)
			}
		}
	}
	schema := JSONSchema{"type": "object", "properties": props, "additionalProperties": false}
	if len(required) > 0 {
		schema["required"] = required
	}
	return schema
}

// jsonField reads a field's JSON name and omitempty; ok is false for an
// unexported field or one tagged "-".
func jsonField(f reflect.StructField) (name string, omitempty, ok bool) {
	if !f.IsExported() {
		return "", false, false
	}
	tag := f.Tag.Get("json")
	if tag == "-" {
		return "", false, false
	}
	name, opts, _ := strings.Cut(tag, ",")
	if name == "" {
		name = f.Name
	}
	for _, o := range strings.Split(opts, ",") {
		omitempty = omitempty || o == "omitempty"
	}
	return name, omitempty, true
}

func fieldSchema(t reflect.Type) map[string]any {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return map[string]any{"type": "string"}
	case reflect.Bool:
		return map[string]any{"type": "boolean"}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return map[string]any{"type": "number"}
	case reflect.Slice, reflect.Array:
		return map[string]any{"type": "array", "items": fieldSchema(t.Elem())}
	case reflect.Map:
		return map[string]any{"type": "object"}
	case reflect.Struct:
		return structSchema(t)
	}
	return map[string]any{}
}

// assignValue stores the decoded JSON value v (map[string]any, []any,
// float64, string, bool, nil) into dst; path names it in errors.
func assignValue(dst reflect.Value, v any, path string) error {
	if v == nil {
		return nil // as encoding/json: null leaves the zero value
	}
	if dst.Kind() == reflect.Pointer {
		if dst.IsNil() {
			dst.Set(reflect.New(dst.Type().Elem()))
		}
		return assignValue(dst.Elem(), v, path)
	}
	mismatch := func() error { return fmt.Errorf("%s: cannot use %T as %s", path, v, dst.Type()) }
	switch dst.Kind() {
	case reflect.Interface:
		if dst.NumMethod() != 0 {
			return mismatch()
		}
		dst.Set(reflect.ValueOf(v))
	case reflect.String:
		s, ok := v.(string)
		if !ok {
			return mismatch()
		}
		dst.SetString(s)
	case reflect.Bool:
		b, ok := v.(bool)
		if !ok {
			return mismatch()
		}
		dst.SetBool(b)
	case reflect.Float32, reflect.Float64:
		f, ok := v.(float64)
		if !ok {
			return mismatch()
		}
		dst.SetFloat(f)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		f, ok := v.(float64)
		if !ok || f != math.Trunc(f) || dst.OverflowInt(int64(f)) {
			return mismatch()
		}
		dst.SetInt(int64(f))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		f, ok := v.(float64)
		if !ok || f < 0 || f != math.Trunc(f) || dst.OverflowUint(uint64(f)) {
			return mismatch()
		}
		dst.SetUint(uint64(f))
	case reflect.Slice:
		list, ok := v.([]any)
		if !ok {
			return mismatch()
		}
		out := reflect.MakeSlice(dst.Type(), len(list), len(list))
		for i, e := range list {
			if err := assignValue(out.Index(i), e, fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
		dst.Set(out)
	case reflect.Array:
		list, ok := v.([]any)
		if !ok {
			return mismatch()
		}
		for i := 0; i < dst.Len() && i < len(list); i++ {
			if err := assignValue(dst.Index(i), list[i], fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
	case reflect.Map:
		obj, ok := v.(map[string]any)
		if !ok || dst.Type().Key().Kind() != reflect.String {
			return mismatch()
		}
		out := reflect.MakeMapWithSize(dst.Type(), len(obj))
		for k, e := range obj {
			ev := reflect.New(dst.Type().Elem()).Elem()
			if err := assignValue(ev, e, path+"."+k); err != nil {
				return err
			}
			out.SetMapIndex(reflect.ValueOf(k).Convert(dst.Type().Key()), ev)
		}
		dst.Set(out)
	case reflect.Struct:
		obj, ok := v.(map[string]any)
		if !ok {
			return mismatch()
		}
		t := dst.Type()
		for i := 0; i < t.NumField(); i++ {
			name, _, ok := jsonField(t.Field(i))
			if !ok {
				continue
			}
			if e, present := obj[name]; present {
				if err := assignValue(dst.Field(i), e, path+"."+name); err != nil {
					return err
				}
			}
		}
	default:
		return mismatch()
	}
	return nil
}
