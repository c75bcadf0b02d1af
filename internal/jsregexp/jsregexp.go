//go:build js && wasm

// Package jsregexp compiles grep patterns with the host's JavaScript RegExp,
// so that a wasm build gets regular expressions without linking Go's
// regexp package (about 100 kB of code). The dialect is JavaScript's.
package jsregexp

import (
	"errors"
	fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx
	"syscall/js"
)

// Matcher compiles pattern into a line predicate; a pattern RegExp refuses
// is an error carrying the engine's message. It has the shape of
// core.Matcher.
func Matcher(pattern string) (func(line string) bool, error) {
	re, err := compile(pattern)
	if err != nil {
		return nil, err
	}
	test := re.Get("test").Call("bind", re)
	return func(line string) bool {
		ok, err := invoke(test, line)
		return err == nil && ok.Truthy()
	}, nil
}

func compile(pattern string) (re js.Value, err error) {
	defer recoverThrow(&err)
	return js.Global().Get("RegExp").New(pattern), nil
}

func invoke(fn js.Value, arg string) (v js.Value, err error) {
	defer recoverThrow(&err)
	return fn.Invoke(arg), nil
}

// recoverThrow turns a JS exception (syscall/js panics with a js.Error)
// into *err, so that a bad pattern never ends the wasm runtime.
func recoverThrow(err *error) {
	p := recover()
	if p == nil {
		return
	}
	if je, ok := p.(js.Error); ok {
		if m := je.Value.Get("message"); m.Type() == js.TypeString {
			*err = errors.New(m.String())
			return
		}
	}
	*err = fmt.Errorf("%v", p)
}
