package skills

import (
	"errors"
	fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx
	"strings"
)

// yamlParser names the frontmatter parser (in test messages).
const yamlParser = "the skills package's YAML subset reader"

// parseYAMLMap is the frontmatter reader of every build: a strict subset of
// YAML that keeps the wasm small (a full YAML library costs about 245 kB
// gzip'd, more than the tools build's budget has room for). It reads a
// mapping of keys to plain, quoted or block (| >) scalars; a nested list or
// mapping under a key is accepted and kept opaque. Anything outside the
// subset is an error, so a skill is skipped (and listed in
// SkillSet.Problems) rather than misread.
func parseYAMLMap(b []byte) (map[string]any, error) {
	lines := strings.Split(string(b), "\n")
	m := map[string]any{}
	for i := 0; i < len(lines); i++ {
		line := strings.TrimRight(lines[i], " \r")
		if strings.TrimSpace(line) == "" || strings.HasPrefix(strings.TrimSpace(line), "#") {
			continue
		}
		if line == "---" && i == 0 {
			continue
		}
		if line[0] == ' ' || line[0] == '\t' {
			return nil, fmt.Errorf("line %d: unexpected indentation", i+1)
		}
		colon := strings.Index(line, ":")
		if colon <= 0 || (colon+1 < len(line) && line[colon+1] != ' ') {
			return nil, fmt.Errorf("line %d: expected key: value", i+1)
		}
		key := strings.TrimSpace(line[:colon])
		if q := key[0]; q == '"' || q == '\'' {
			key = strings.Trim(key, string(q))
		}
		if _, dup := m[key]; dup {
			return nil, fmt.Errorf("line %d: key %q is already defined", i+1, key)
		}
		val := strings.TrimSpace(line[colon+1:])
		// The lines indented under this key belong to its value.
		j := i + 1
		for j < len(lines) && (strings.TrimSpace(lines[j]) == "" || lines[j][0] == ' ' || lines[j][0] == '\t') {
			if strings.TrimSpace(lines[j]) != "" && strings.HasPrefix(lines[j], "\t") {
				return nil, fmt.Errorf("line %d: tabs are not allowed as indentation", j+1)
			}
			j++
		}
		more := lines[i+1 : j]
		i = j - 1
		v, err := liteValue(val, more)
		if err != nil {
			return nil, fmt.Errorf("key %q: %w", key, err)
		}
		m[key] = v
	}
	return m, nil
}

func liteValue(val string, more []string) (any, error) {
	hasMore := strings.TrimSpace(strings.Join(more, "")) != ""
	switch {
	case val == "" || strings.HasPrefix(val, "#"):
		if !hasMore {
			return nil, nil
		}
		return map[string]any{}, nil // a nested list or mapping, kept opaque
	case val[0] == '|' || val[0] == '>':
		if strings.Trim(val[1:], "+-0123456789") != "" && !strings.HasPrefix(strings.TrimSpace(strings.Trim(val[1:], "+-0123456789")), "#") {
			return nil, errors.New("bad block scalar header")
		}
		return blockScalar(val[0] == '|', strings.ContainsRune(val, '-'), more), nil
	case val[0] == '"' || val[0] == '\'':
		if hasMore {
			return nil, errors.New("a quoted value over several lines is outside the YAML subset skills read")
		}
		return quoted(val)
	case val[0] == '[' || val[0] == '{':
		closer := map[byte]byte{'[': ']', '{': '}'}[val[0]]
		if val[len(val)-1] != closer || hasMore {
			return nil, errors.New("unclosed flow collection")
		}
		return []any{}, nil // kept opaque
	case strings.ContainsRune("&*!%@`|>", rune(val[0])):
		return nil, fmt.Errorf("%q starts with a character this reader does not support", val)
	}
	parts := []string{stripComment(val)}
	for _, l := range more {
		if t := strings.TrimSpace(l); t != "" {
			parts = append(parts, stripComment(t))
		}
	}
	text := strings.Join(parts, " ")
	if strings.Contains(text, ": ") || strings.HasSuffix(text, ":") {
		return nil, errors.New("mapping values are not allowed in a plain scalar")
	}
	return text, nil
}

func stripComment(s string) string {
	if i := strings.Index(s, " #"); i >= 0 {
		s = s[:i]
	}
	return strings.TrimSpace(s)
}

func quoted(val string) (string, error) {
	q := val[0]
	var b strings.Builder
	for i := 1; i < len(val); i++ {
		c := val[i]
		switch {
		case q == '\'' && c == '\'':
			if i+1 < len(val) && val[i+1] == '\'' {
				b.WriteByte('\'')
				i++
				continue
			}
			return b.String(), trailing(val[i+1:])
		case q == '"' && c == '"':
			return b.String(), trailing(val[i+1:])
		case q == '"' && c == '\\' && i+1 < len(val):
			i++
			switch val[i] {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case '"', '\\', '/':
				b.WriteByte(val[i])
			default:
				return "", fmt.Errorf("escape \\%c is outside the YAML subset skills read", val[i])
			}
		default:
			b.WriteByte(c)
		}
	}
	return "", errors.New("unterminated quoted string")
}

func trailing(rest string) error {
	rest = strings.TrimSpace(rest)
	if rest != "" && !strings.HasPrefix(rest, "#") {
		return fmt.Errorf("unexpected %q after the quoted string", rest)
	}
	return nil
}

// blockScalar joins the indented lines of a | (literal) or > (folded) value.
func blockScalar(literal, strip bool, more []string) string {
	indent := -1
	for _, l := range more {
		if t := strings.TrimLeft(l, " "); t != "" {
			indent = len(l) - len(t)
			break
		}
	}
	var lines []string
	for _, l := range more {
		l = strings.TrimRight(l, "\r")
		if len(l) >= indent && indent >= 0 {
			l = l[indent:]
		} else {
			l = strings.TrimLeft(l, " ")
		}
		lines = append(lines, l)
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	var text string
	if literal {
		text = strings.Join(lines, "\n")
	} else {
		var b strings.Builder
		// A blank line is a line break; other line breaks fold to a space.
		for i, l := range lines {
			switch {
			case l == "":
				b.WriteByte('\n')
			case i > 0 && lines[i-1] != "":
				b.WriteByte(' ')
			}
			b.WriteString(l)
		}
		text = b.String()
	}
	if !strip {
		text += "\n"
	}
	return text
}
