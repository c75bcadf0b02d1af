// Package jsonx is the JSON encoder of the wasm builds. encoding/json is
// not linked into them: in a minimal syscall/js + gjson program it costs
// about 170 KB of the gzipped wasm (measured), and under js/wasm its
// per-call setup was the agent loop's largest cost. Decoding is gjson's.
// The output matches encoding/json's, except that <, > and & are not
// escaped (the bytes go to models and JS, not into HTML) and a
// json.RawMessage is copied as it is rather than compacted.
package jsonx

import (
	"encoding/json" // for the RawMessage type only; nothing of the package runs
	"errors"
	fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/tidwall/gjson"
)

// validRaw checks JSON text the encoder copies as it is. The depth check
// comes first (gjson's validation recurses per level); it allows WrapSlack
// over MaxDepth because such text wraps values accepted at MaxDepth.
func validRaw(b []byte) bool {
	return CheckDepth(b, MaxDepth+WrapSlack) == nil && gjson.ValidBytes(b)
}

// Marshal returns the JSON encoding of v, without HTML escaping.
func Marshal(v any) ([]byte, error) { return Append(nil, v) }

// Append appends the JSON encoding of v to dst.
func Append(dst []byte, v any) ([]byte, error) {
	switch x := v.(type) {
	case nil:
		return append(dst, "null"...), nil
	case string:
		return AppendString(dst, x), nil
	case bool:
		return strconv.AppendBool(dst, x), nil
	case float64:
		return appendFloat(dst, x)
	case int:
		return strconv.AppendInt(dst, int64(x), 10), nil
	case json.RawMessage:
		if x == nil {
			return append(dst, "null"...), nil // as RawMessage.MarshalJSON
		}
		if !validRaw(x) {
			return nil, errors.New("jsonx: invalid json.RawMessage")
		}
		return append(dst, x...), nil
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		dst = append(dst, '{')
		for i, k := range keys {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(AppendString(dst, k), ':')
			var err error
			if dst, err = Append(dst, x[k]); err != nil {
				return nil, err
			}
		}
		return append(dst, '}'), nil
	case []any:
		dst = append(dst, '[')
		for i, e := range x {
			if i > 0 {
				dst = append(dst, ',')
			}
			var err error
			if dst, err = Append(dst, e); err != nil {
				return nil, err
			}
		}
		return append(dst, ']'), nil
	}
	return appendOther(dst, v)
}

// mapEntry is one entry of a map appendOther encodes; byKey sorts them
// with sort.Sort, whose code every build links
// anyway (sort.Slice would add reflectlite's swapper).
type mapEntry struct {
	key   string
	value reflect.Value
}

type byKey []mapEntry

func (k byKey) Len() int           { return len(k) }
func (k byKey) Less(i, j int) bool { return k[i].key < k[j].key }
func (k byKey) Swap(i, j int)      { k[i], k[j] = k[j], k[i] }

// appendOther encodes the kinds the fast paths do not name — other numeric
// types, pointers, slices, arrays, maps with string keys, and structs
// (exported fields, `json:"name,omitempty"` tags, "-" skipped) — by
// reflection. Values that implement json.Marshaler encode as they ask, and
// errors as their text.
func appendOther(dst []byte, v any) ([]byte, error) {
	if m, ok := v.(interface{ MarshalJSON() ([]byte, error) }); ok {
		return appendMarshaler(dst, m)
	}
	if e, ok := v.(error); ok {
		return AppendString(dst, e.Error()), nil
	}
	return appendValue(dst, reflect.ValueOf(v))
}

// appendMarshaler copies what m.MarshalJSON returns, once it is checked.
func appendMarshaler(dst []byte, m interface{ MarshalJSON() ([]byte, error) }) ([]byte, error) {
	b, err := m.MarshalJSON()
	if err != nil {
		return nil, err
	}
	if !validRaw(b) {
		return nil, fmt.Errorf("jsonx: MarshalJSON of %T returned invalid JSON", m)
	}
	return append(dst, b...), nil
}

var (
	rawMessageType = reflect.TypeFor[json.RawMessage]()
	checkedType    = reflect.TypeFor[Checked]()
	marshalerType  = reflect.TypeFor[interface{ MarshalJSON() ([]byte, error) }]()
	errorType      = reflect.TypeFor[error]()
)

// appendValue encodes rv by reflection alone. It never turns a nested
// value back into an interface: reflect.Value.Interface links reflect's
// method-value code (makeMethodValue, callMethod, funcLayout and the ABI
// layout), which cost the browser build 61 kB raw and 17.5 kB gzip -9
// (measured at 3a060dd). A nested value whose type has a MarshalJSON or
// Error method goes to appendMethod (encode_method*.go).
func appendValue(dst []byte, rv reflect.Value) ([]byte, error) {
	switch rv.Kind() {
	case reflect.Invalid:
		return append(dst, "null"...), nil
	case reflect.Interface:
		if rv.IsNil() {
			return append(dst, "null"...), nil
		}
		return appendValue(dst, rv.Elem())
	case reflect.Pointer, reflect.Map, reflect.Slice:
		if rv.IsNil() {
			if rv.Type() == checkedType {
				break // Checked(nil) is invalid JSON, as its MarshalJSON says
			}
			return append(dst, "null"...), nil // json.RawMessage(nil) too
		}
	}
	switch t := rv.Type(); {
	case t == rawMessageType || t == checkedType:
		b := rv.Bytes()
		if !validRaw(b) {
			return nil, fmt.Errorf("jsonx: invalid %s", t)
		}
		return append(dst, b...), nil
	case t.Implements(marshalerType) || t.Implements(errorType):
		return appendMethod(dst, rv)
	}
	switch rv.Kind() {
	case reflect.Pointer:
		return appendValue(dst, rv.Elem())
	case reflect.String:
		return AppendString(dst, rv.String()), nil
	case reflect.Bool:
		return strconv.AppendBool(dst, rv.Bool()), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.AppendInt(dst, rv.Int(), 10), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return strconv.AppendUint(dst, rv.Uint(), 10), nil
	case reflect.Float32, reflect.Float64:
		return appendFloat(dst, rv.Float())
	case reflect.Slice, reflect.Array:
		dst = append(dst, '[')
		for i := 0; i < rv.Len(); i++ {
			if i > 0 {
				dst = append(dst, ',')
			}
			var err error
			if dst, err = appendValue(dst, rv.Index(i)); err != nil {
				return nil, err
			}
		}
		return append(dst, ']'), nil
	case reflect.Map:
		if rv.Type().Key().Kind() != reflect.String {
			return nil, fmt.Errorf("jsonx: cannot encode %s: map keys must be strings", rv.Type())
		}
		// MapRange, not MapKeys and MapIndex: MapIndex's key conversion
		// (Value.assignTo) links reflect's method-value machinery too.
		entries := make([]mapEntry, 0, rv.Len())
		for it := rv.MapRange(); it.Next(); {
			entries = append(entries, mapEntry{it.Key().String(), it.Value()})
		}
		sort.Sort(byKey(entries))
		dst = append(dst, '{')
		for i, e := range entries {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(AppendString(dst, e.key), ':')
			var err error
			if dst, err = appendValue(dst, e.value); err != nil {
				return nil, err
			}
		}
		return append(dst, '}'), nil
	case reflect.Struct:
		return appendStruct(dst, rv)
	}
	return nil, fmt.Errorf("jsonx: cannot encode %s", rv.Type())
}

func appendStruct(dst []byte, rv reflect.Value) ([]byte, error) {
	dst = append(dst, '{')
	n := 0
	for _, f := range structFields(rv.Type()) {
		fv, ok := fieldByIndex(rv, f.index)
		if !ok || f.omitEmpty && isEmpty(fv) {
			continue
		}
		if n > 0 {
			dst = append(dst, ',')
		}
		n++
		dst = append(AppendString(dst, f.name), ':')
		var err error
		if dst, err = appendValue(dst, fv); err != nil {
			return nil, fmt.Errorf("%s.%s: %w", rv.Type().Name(), f.goName, err)
		}
	}
	return append(dst, '}'), nil
}

// structField is one field a struct encodes, embedded structs' fields
// included.
type structField struct {
	name, goName string
	index        []int
	omitEmpty    bool
	tagged       bool
}

// structFields lists the fields t encodes, in encoding/json's order: the
// fields of an embedded struct (or pointer to one) without a json name
// stand in its place, and of several fields with one name the shallowest
// wins — the tagged one when there are more at that depth, none when that
// does not decide.
func structFields(t reflect.Type) []structField {
	if f, ok := fieldCache.Load(t); ok {
		return f.([]structField)
	}
	f, _ := fieldCache.LoadOrStore(t, listFields(t))
	return f.([]structField)
}

// fieldCache holds structFields' answers by type.
var fieldCache sync.Map

func listFields(t reflect.Type) []structField {
	var all []structField
	var walk func(t reflect.Type, index []int, seen map[reflect.Type]bool)
	walk = func(t reflect.Type, index []int, seen map[reflect.Type]bool) {
		if seen[t] {
			return
		}
		seen[t] = true
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			name, opts, _ := strings.Cut(jsonTag(f.Tag), ",")
			if name == "-" && opts == "" {
				continue
			}
			idx := append(append([]int(nil), index...), i)
			if f.Anonymous && name == "" {
				ft := f.Type
				if ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				if ft.Kind() == reflect.Struct {
					walk(ft, idx, seen)
					continue
				}
			}
			if !f.IsExported() {
				continue
			}
			tagged := name != ""
			if !tagged {
				name = f.Name
			}
			all = append(all, structField{name: name, goName: f.Name, index: idx, omitEmpty: strings.Contains(opts, "omitempty"), tagged: tagged})
		}
		delete(seen, t)
	}
	walk(t, nil, map[reflect.Type]bool{})
	var out []structField
	for i, f := range all {
		keep := true
		for j, g := range all {
			if i == j || g.name != f.name {
				continue
			}
			if len(g.index) < len(f.index) || len(g.index) == len(f.index) && (g.tagged && !f.tagged || g.tagged == f.tagged) {
				keep = false
				break
			}
		}
		if keep {
			out = append(out, f)
		}
	}
	return out
}

// fieldByIndex is the field at index; ok is false when a nil embedded
// pointer is on the way.
func fieldByIndex(v reflect.Value, index []int) (reflect.Value, bool) {
	for i, x := range index {
		if i > 0 && v.Kind() == reflect.Pointer {
			if v.IsNil() {
				return reflect.Value{}, false
			}
			v = v.Elem()
		}
		v = v.Field(x)
	}
	return v, true
}

// isEmpty is encoding/json's omitempty test.
func isEmpty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool:
		return !v.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int() == 0
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return v.Uint() == 0
	case reflect.Float32, reflect.Float64:
		return v.Float() == 0
	case reflect.Interface, reflect.Pointer:
		return v.IsNil()
	}
	return false
}

func appendFloat(dst []byte, f float64) ([]byte, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return nil, errors.New("jsonx: cannot encode NaN or Inf")
	}
	format := byte('f')
	if a := math.Abs(f); a != 0 && (a < 1e-6 || a >= 1e21) {
		format = 'e'
	}
	start := len(dst)
	dst = strconv.AppendFloat(dst, f, format, -1, 64)
	// 1e-07 → 1e-7, as encoding/json writes it.
	if format == 'e' {
		if i := len(dst) - 4; i > start && dst[i] == 'e' && dst[i+1] == '-' && dst[i+2] == '0' {
			dst[i+2] = dst[i+3]
			dst = dst[:len(dst)-1]
		}
	}
	return dst, nil
}

// AppendString appends s as a JSON string literal: the escapes
// encoding/json uses, except that <, > and & stay as they are (the bytes go
// to models and JS, not into HTML). Invalid UTF-8 becomes U+FFFD.
func AppendString(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hex[r&0xf])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// errMethod is appendMethod's error for a nested value of type t it cannot
// encode.
func errMethod(t reflect.Type) error {
	return fmt.Errorf("jsonx: cannot encode %s inside another value in the wasm builds: its MarshalJSON or Error method is not called there; encode it on its own (or as a json.RawMessage) first", t)
}
