// Package fmtx formats the messages of the wasm path — errors, tool results,
// the metrics text — as package fmt does, for the verbs they use: %v %s %q %d
// %T %w, %f/%g/%e with a precision, and %%. Errorf wraps with %w as
// fmt.Errorf does (errors.Is, errors.As and errors.Unwrap see through it).
//
// Why not fmt: its printer formats any value by reflection, and linking it
// keeps internal/fmtsort and the String, GoString and Format methods of every
// type that may sit in an interface (time.Time's formatting among them).
// Measured with every core, jsbridge and internal/jsonx call of fmt on the
// browser build's path swapped for a stand-in, fmt left the link and the
// browser build went from 3,846,177 to 3,629,887 bytes raw and from 1,061,105
// to 1,003,274 gzip -9 (issue 27: start-up follows raw bytes). The packages
// on that path import this one as `fmt`, so the calls read as before.
//
// Differences from fmt, all on values those messages never format: width and
// flags are ignored, and a value that is neither an error, a Stringer, a
// string, []byte, a bool nor a number (a map, a struct, a pointer) prints as
// %!v(TYPE). tests compare the two on what is supported.
package fmtx

import (
	"errors"
	"io"
	"reflect"
	"strconv"
	"unicode/utf8"
)

// Stringer is fmt.Stringer.
type Stringer interface{ String() string }

// Errorf is fmt.Errorf: a %w operand is wrapped (several give an error
// whose Unwrap returns them all).
func Errorf(format string, a ...any) error {
	var wrapped []error
	msg := string(appendf(nil, format, a, &wrapped))
	switch len(wrapped) {
	case 0:
		return errors.New(msg)
	case 1:
		return &wrapError{msg, wrapped[0]}
	}
	return &wrapErrors{msg, wrapped}
}

type wrapError struct {
	msg string
	err error
}

func (e *wrapError) Error() string { return e.msg }
func (e *wrapError) Unwrap() error { return e.err }

type wrapErrors struct {
	msg  string
	errs []error
}

func (e *wrapErrors) Error() string   { return e.msg }
func (e *wrapErrors) Unwrap() []error { return e.errs }

// Sprintf is fmt.Sprintf.
func Sprintf(format string, a ...any) string { return string(appendf(nil, format, a, nil)) }

// Appendf is fmt.Appendf.
func Appendf(b []byte, format string, a ...any) []byte { return appendf(b, format, a, nil) }

// Fprintf is fmt.Fprintf.
func Fprintf(w io.Writer, format string, a ...any) (int, error) {
	return w.Write(appendf(nil, format, a, nil))
}

// Sprint is fmt.Sprint: operands in %v, a space between two that are not
// strings.
func Sprint(a ...any) string { return string(appendSprint(nil, a)) }

// Fprint is fmt.Fprint.
func Fprint(w io.Writer, a ...any) (int, error) { return w.Write(appendSprint(nil, a)) }

func appendSprint(b []byte, a []any) []byte {
	prevStr := false
	for i, v := range a {
		isStr := v != nil && reflect.TypeOf(v).Kind() == reflect.String
		if i > 0 && !isStr && !prevStr {
			b = append(b, ' ')
		}
		b = appendValue(b, 'v', -1, v)
		prevStr = isStr
	}
	return b
}

// appendf formats like fmt; wrapped (when not nil) collects %w operands.
func appendf(b []byte, format string, a []any, wrapped *[]error) []byte {
	arg := 0
	for i := 0; i < len(format); {
		c := format[i]
		if c != '%' {
			j := i + 1
			for j < len(format) && format[j] != '%' {
				j++
			}
			b = append(b, format[i:j]...)
			i = j
			continue
		}
		i++
		// Flags and width are read and ignored; a precision is kept.
		for i < len(format) && (format[i] == '-' || format[i] == '+' || format[i] == '#' || format[i] == ' ' || format[i] == '0') {
			i++
		}
		for i < len(format) && format[i] >= '0' && format[i] <= '9' {
			i++
		}
		prec := -1
		if i < len(format) && format[i] == '.' {
			i++
			prec = 0
			for i < len(format) && format[i] >= '0' && format[i] <= '9' {
				prec = prec*10 + int(format[i]-'0')
				i++
			}
		}
		if i >= len(format) {
			b = append(b, "%!(NOVERB)"...)
			break
		}
		verb, size := utf8.DecodeRuneInString(format[i:])
		i += size
		if verb == '%' {
			b = append(b, '%')
			continue
		}
		if arg >= len(a) {
			b = append(b, "%!"...)
			b = utf8.AppendRune(b, verb)
			b = append(b, "(MISSING)"...)
			continue
		}
		v := a[arg]
		arg++
		if verb == 'w' {
			err, ok := v.(error)
			if !ok || wrapped == nil {
				b = badVerb(b, verb, v)
				continue
			}
			*wrapped = append(*wrapped, err)
			verb = 'v'
		}
		b = appendValue(b, verb, prec, v)
	}
	if arg < len(a) {
		b = append(b, "%!(EXTRA "...)
		for k, v := range a[arg:] {
			if k > 0 {
				b = append(b, ", "...)
			}
			b = appendType(b, v)
			b = append(b, '=')
			b = appendValue(b, 'v', -1, v)
		}
		b = append(b, ')')
	}
	return b
}

// appendValue formats one operand with verb.
func appendValue(b []byte, verb rune, prec int, v any) (out []byte) {
	if verb == 'T' {
		return appendType(b, v)
	}
	if v == nil {
		if verb == 'v' {
			return append(b, "<nil>"...)
		}
		return badVerb(b, verb, v)
	}
	// An Error or String method that panics on a nil receiver prints
	// <nil>, as fmt does.
	defer func() {
		if p := recover(); p != nil {
			out = append(b, "<nil>"...)
		}
	}()
	if verb == 'v' || verb == 's' || verb == 'q' {
		switch x := v.(type) {
		case error:
			return appendString(b, verb, x.Error())
		case Stringer:
			return appendString(b, verb, x.String())
		}
	}
	switch x := v.(type) {
	case string:
		return appendString(b, verb, x)
	case []byte:
		if verb == 's' || verb == 'q' {
			return appendString(b, verb, string(x))
		}
		if verb == 'v' {
			b = append(b, '[')
			for i, c := range x {
				if i > 0 {
					b = append(b, ' ')
				}
				b = strconv.AppendUint(b, uint64(c), 10)
			}
			return append(b, ']')
		}
	case bool:
		if verb == 'v' || verb == 't' {
			return strconv.AppendBool(b, x)
		}
	case float64:
		return appendFloat(b, verb, prec, x, 64)
	case float32:
		return appendFloat(b, verb, prec, float64(x), 32)
	}
	// Integers and named basic types.
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		switch verb {
		case 'v', 'd':
			return strconv.AppendInt(b, rv.Int(), 10)
		case 'q':
			return strconv.AppendQuoteRune(b, rune(rv.Int()))
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		switch verb {
		case 'v', 'd':
			return strconv.AppendUint(b, rv.Uint(), 10)
		case 'q':
			return strconv.AppendQuoteRune(b, rune(rv.Uint()))
		}
	case reflect.String:
		return appendString(b, verb, rv.String())
	case reflect.Bool:
		if verb == 'v' || verb == 't' {
			return strconv.AppendBool(b, rv.Bool())
		}
	case reflect.Float32, reflect.Float64:
		return appendFloat(b, verb, prec, rv.Float(), rv.Type().Bits())
	case reflect.Slice:
		if rv.Type().Elem().Kind() == reflect.Uint8 { // json.RawMessage and other named []byte
			return appendValue(b, verb, prec, rv.Bytes())
		}
	}
	return badVerb(b, verb, v)
}

func appendString(b []byte, verb rune, s string) []byte {
	switch verb {
	case 'v', 's':
		return append(b, s...)
	case 'q':
		return strconv.AppendQuote(b, s)
	}
	return badVerb(b, verb, s)
}

func appendFloat(b []byte, verb rune, prec int, f float64, bits int) []byte {
	switch verb {
	case 'v':
		return strconv.AppendFloat(b, f, 'g', prec, bits) // fmt's %v is %g
	case 'f', 'e', 'g':
		if prec < 0 && verb != 'g' {
			prec = 6 // fmt's default for %f and %e; %g is shortest
		}
		return strconv.AppendFloat(b, f, byte(verb), prec, bits)
	}
	return badVerb(b, verb, f)
}

func appendType(b []byte, v any) []byte {
	if v == nil {
		return append(b, "<nil>"...)
	}
	return append(b, reflect.TypeOf(v).String()...)
}

// badVerb writes what fmt writes for a verb that does not fit its operand
// (%!d(string=x)); an operand fmtx does not format gives %!v(TYPE).
func badVerb(b []byte, verb rune, v any) []byte {
	b = append(b, "%!"...)
	b = utf8.AppendRune(b, verb)
	b = append(b, '(')
	if v == nil {
		return append(b, "<nil>)"...)
	}
	b = appendType(b, v)
	switch v.(type) {
	case string, bool, float64, float32, int, int64, uint64, error, Stringer:
		if verb != 'v' {
			b = append(b, '=')
			b = appendValue(b, 'v', -1, v)
		}
	}
	return append(b, ')')
}
