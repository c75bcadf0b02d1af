//go:build js && wasm

package jsbridge

import (
	"context"
	"errors"
	fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx
	"strings"
	"syscall/js"

	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/internal/jsonx"
)

// JS classes and helpers, looked up once. abortControllerMissing is true on
// hosts without AbortController; fetches there cannot be aborted, only
// abandoned.
var (
	jsJSON                 = js.Global().Get("JSON")
	jsObject               = js.Global().Get("Object")
	jsPromise              = js.Global().Get("Promise")
	jsErrorClass           = js.Global().Get("Error")
	jsUint8Array           = js.Global().Get("Uint8Array")
	jsAbortController      = js.Global().Get("AbortController")
	abortControllerMissing = jsAbortController.IsUndefined()
)

// errPrefix starts every error message the bridge hands to JS.
const errPrefix = "toolnexus: "

// toJS converts a plain Go value to JS by way of JSON: one JSON.parse is far
// cheaper than walking the value through syscall/js field by field.
func toJS(v any) js.Value {
	b, err := jsonx.Marshal(v)
	if err != nil {
		return js.Null()
	}
	return jsJSON.Call("parse", string(b))
}

// jsonOf returns JSON.stringify(v); undefined and functions give "".
func jsonOf(v js.Value) (s string, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("value cannot be encoded as JSON: %v", p)
		}
	}()
	if v.IsUndefined() {
		return "", nil
	}
	out := jsJSON.Call("stringify", v)
	if out.Type() != js.TypeString {
		return "", nil
	}
	return out.String(), nil
}

// fromJS decodes a JS value into dst through JSON.stringify and gjson (the
// wasm does not link encoding/json). dst is one of the shapes the bridge
// reads: a map of strings, of booleans or of values, or a core.Answer or
// core.Request. They are named, not matched as any type with an UnmarshalJSON
// method: an interface call of UnmarshalJSON keeps that method of every type
// that may sit in an interface, time.Time's among them, and with it
// time.Parse (measured: the browser build 66 kB raw / 17 kB gzip smaller).
func fromJS(v js.Value, dst any) error {
	s, err := jsonOf(v)
	if err != nil {
		return err
	}
	if s == "" {
		return errors.New("value is undefined")
	}
	switch d := dst.(type) {
	case *core.Answer:
		return d.UnmarshalJSON([]byte(s))
	case *core.Request:
		return d.UnmarshalJSON([]byte(s))
	case *map[string]string:
		m, err := jsonx.StringMap([]byte(s))
		*d = m
		return err
	case *map[string]any:
		m, err := jsonx.DecodeObject([]byte(s))
		*d = m
		return err
	case *map[string]bool:
		m, err := jsonx.DecodeObject([]byte(s))
		if err != nil {
			return err
		}
		out := make(map[string]bool, len(m))
		for k, val := range m {
			b, ok := val.(bool)
			if !ok {
				return fmt.Errorf("the value of %s is not a boolean", k)
			}
			out[k] = b
		}
		*d = out
		return nil
	}
	return fmt.Errorf("jsbridge: cannot decode into %T", dst)
}

// str reads a string property, or "" when it is not a string.
func str(v js.Value, key string) string {
	p := v.Get(key)
	if p.Type() != js.TypeString {
		return ""
	}
	return p.String()
}

// truthy reads a property as a JS truth value.
func truthy(v js.Value, key string) bool { return v.Get(key).Truthy() }

// intProp reads a numeric property, or 0.
func intProp(v js.Value, key string) int {
	p := v.Get(key)
	if p.Type() != js.TypeNumber {
		return 0
	}
	return p.Int()
}

// isThenable reports whether v is a Promise or another thenable.
func isThenable(v js.Value) bool {
	return v.Type() == js.TypeObject && isFunc(v.Get("then"))
}

// isFunc reports whether v is callable.
func isFunc(v js.Value) bool { return v.Type() == js.TypeFunction }

// jsErrorValue makes a JS Error whose message starts with "toolnexus: ".
func jsErrorValue(err error) js.Value {
	msg := strings.TrimPrefix(err.Error(), "core: ")
	if !strings.HasPrefix(msg, errPrefix) {
		msg = errPrefix + msg
	}
	return jsErrorClass.New(msg)
}

// messageOf turns a thrown or rejected JS value into text.
func messageOf(v js.Value) string {
	if v.Type() == js.TypeObject {
		if m := v.Get("message"); m.Type() == js.TypeString {
			return m.String()
		}
	}
	if v.IsUndefined() || v.IsNull() {
		return "rejected without a reason"
	}
	return js.Global().Call("String", v).String()
}

// call invokes fn and turns a synchronous throw into an error.
func call(fn js.Value, args ...any) (v js.Value, err error) {
	defer caught(&err)
	return fn.Invoke(args...), nil
}

// caught, deferred, turns a panic into *err: syscall/js panics with a
// js.Error when a JS callee throws.
func caught(err *error) {
	if p := recover(); p != nil {
		if je, ok := p.(js.Error); ok {
			*err = errors.New(messageOf(je.Value))
			return
		}
		*err = fmt.Errorf("%v", p)
	}
}

// await waits for a value that may be a Promise. Both callbacks are released
// by whichever fires; when ctx ends first they stay registered until the
// promise settles, because calling a released js.Func would kill the runtime.
// It must run on its own goroutine, never inside a js.FuncOf callback.
func await(ctx context.Context, v js.Value) (js.Value, error) {
	ok := make(chan js.Value, 1)
	fail := make(chan js.Value, 1)
	var onOK, onFail js.Func
	release := func() { onOK.Release(); onFail.Release() }
	onOK = js.FuncOf(func(_ js.Value, args []js.Value) any {
		release()
		ok <- arg0(args)
		return nil
	})
	onFail = js.FuncOf(func(_ js.Value, args []js.Value) any {
		release()
		fail <- arg0(args)
		return nil
	})
	jsPromise.Call("resolve", v).Call("then", onOK, onFail)
	select {
	case r := <-ok:
		return r, nil
	case e := <-fail:
		return js.Undefined(), &rejected{msg: messageOf(e), value: e}
	case <-ctx.Done():
		return js.Undefined(), ctx.Err()
	}
}

// rejected is a Promise's rejection as an error: its message, and the
// rejected value itself for a caller that tells rejections apart (a
// journal's refusal of a duplicate entry, journal.go).
type rejected struct {
	msg   string
	value js.Value
}

func (e *rejected) Error() string { return e.msg }

func arg0(args []js.Value) js.Value {
	if len(args) == 0 {
		return js.Undefined()
	}
	return args[0]
}
