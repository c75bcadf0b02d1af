//go:build js && wasm

package cfworker

import (
	"strconv"
	"syscall/js"

	"github.com/tidwall/gjson"
)

// settingsKept bounds how many env versions the instance keeps: an isolate
// serves one env, plus one per Durable Object class whose object drives a
// run here.
const settingsKept = 8

// envSettings is one env's snapshot (worker.mjs settingsText): its settings
// as getenv reads them, and the names of its bindings.
type envSettings struct {
	vars     map[string]string
	bindings map[string]bool
	// values holds the bindings read so far (binding): an env's bindings
	// are the same objects for every request that has it.
	values map[string]js.Value
}

// settings returns the snapshot of env version v (worker.mjs settingsOf),
// read from the module once per version: every request of the isolate then
// reads its settings from Go's memory, where each one was a JS call (a few
// dozen per request), and learns that a binding is absent without one.
// Nil when the module makes no snapshot.
func (s *server) settings(v string, id int) *envSettings {
	if m, ok := s.settingsByVersion[v]; ok {
		return m
	}
	if s.js.Get("settings").Type() != js.TypeFunction {
		return nil
	}
	m := parseSettings(s.js.Call("settings", id).String())
	if len(s.settingsByVersion) >= settingsKept {
		clear(s.settingsByVersion)
	}
	s.settingsByVersion[v] = m
	return m
}

// parseSettings reads worker.mjs settingsText. Numbers and booleans read
// as getenv formatted them (strconv's 'f' format, "true", "false").
func parseSettings(text string) *envSettings {
	m := &envSettings{vars: map[string]string{}, bindings: map[string]bool{}, values: map[string]js.Value{}}
	doc := gjson.Parse(text)
	doc.Get("s").ForEach(func(k, v gjson.Result) bool {
		switch v.Type {
		case gjson.String:
			m.vars[k.Str] = v.Str
		case gjson.Number:
			m.vars[k.Str] = strconv.FormatFloat(v.Num, 'f', -1, 64)
		case gjson.True, gjson.False:
			m.vars[k.Str] = strconv.FormatBool(v.Type == gjson.True)
		}
		return true
	})
	doc.Get("b").ForEach(func(_, v gjson.Result) bool {
		m.bindings[v.Str] = true
		return true
	})
	return m
}
