package skills

import (
	"strings"
	"testing"
)

// TestFrontmatterReaders runs frontmatter through the subset reader, which
// every build uses; the cases were once checked against go.yaml.in/yaml/v3
// as well, so the subset reads them as full YAML does.
func TestFrontmatterReaders(t *testing.T) {
	tests := []struct {
		name, front, wantName, wantDesc string
		wantErr                         bool
	}{
		{"plain", "name: a\ndescription: plain text here", "a", "plain text here", false},
		{"comments", "# top\nname: a # trailing\ndescription: d", "a", "d", false},
		{"double quoted", `name: "a"` + "\n" + `description: "say \"hi\"\tthere"`, "a", "say \"hi\"\tthere", false},
		{"single quoted", "name: 'a'\ndescription: 'it''s'", "a", "it's", false},
		{"folded", "name: a\ndescription: >\n  one\n  two\n\n  three\n", "a", "one two\nthree", false},
		{"literal", "name: a\ndescription: |\n  one\n  two\n", "a", "one\ntwo", false},
		{"plain continued", "name: a\ndescription: one\n  two", "a", "one two", false},
		{"nested ignored", "name: a\nmetadata:\n  owner: x\n  tags: [p, q]\nallowed-tools:\n  - read\ndescription: d", "a", "d", false},
		{"flow list value", "name: a\ntags: [x, y]\ndescription: d", "a", "d", false},
		{"number name", "name: 42\ndescription: d", "42", "d", false},
		{"empty description", "name: a\ndescription:", "a", "", false},
		{"unclosed flow", "name: a\ndescription: [x", "", "", true},
		{"unclosed quote", "name: \"a\ndescription: d", "", "", true},
		{"mapping in plain", "name: a\ndescription: a: b", "", "", true},
		{"duplicate key", "name: a\nname: b", "", "", true},
		{"tab indent", "name: a\nmetadata:\n\towner: x", "", "", true},
		{"not a mapping", "just text", "", "", true},
		{"list at top", "- a\n- b", "", "", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sk, err := parseSkill("s/SKILL.md", []byte("---\n"+tc.front+"\n---\nbody"))
			if tc.wantErr {
				if err == nil {
					t.Fatalf("%s: want an error, got %+v", yamlParser, sk)
				}
				return
			}
			if tc.wantName == "" && err != nil && strings.Contains(err.Error(), "no name") {
				return
			}
			if err != nil || sk.Name != tc.wantName || sk.Description != tc.wantDesc {
				t.Fatalf("%s: got %+v, %v; want name %q description %q", yamlParser, sk, err, tc.wantName, tc.wantDesc)
			}
		})
	}
}
