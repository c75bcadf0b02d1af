package tool

import (
	fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx
	"strings"
)

// FillVariables replaces each ${NAME} of s from vars, else, when env is
// not nil, from env; a name without a value is an error rather than an
// empty string, so a missing key fails loudly.
func FillVariables(s string, vars map[string]string, env func(name string) (string, bool)) (string, error) {
	var b strings.Builder
	for {
		i := strings.Index(s, "${")
		if i < 0 {
			break
		}
		j := strings.IndexByte(s[i:], '}')
		if j < 0 {
			break
		}
		name := s[i+2 : i+j]
		v, ok := vars[name]
		if !ok && env != nil {
			v, ok = env(name)
		}
		if !ok {
			return "", fmt.Errorf("variable %s is not set", name)
		}
		b.WriteString(s[:i])
		b.WriteString(v)
		s = s[i+j+1:]
	}
	b.WriteString(s)
	return b.String(), nil
}
