package skills

import (
	"strings"
	"testing"

	"github.com/toolnexus/wasm/internal/jsonx"
)

// deepDepths are one past the JSON depth limit and two far past it.
var deepDepths = []int{jsonx.MaxDepth + 1, 20_000, 100_000}

func TestDeepSkillFrontmatterIsSkipped(t *testing.T) {
	for _, depth := range deepDepths {
		flow := strings.Repeat("[", depth) + strings.Repeat("]", depth)
		if _, err := parseSkill("deep/SKILL.md", []byte("---\nname: deep\nmeta: "+flow+"\n---\nbody")); err == nil || !strings.Contains(err.Error(), "nests more than") {
			t.Fatalf("depth %d: flow: %v", depth, err)
		}
		var b strings.Builder
		b.WriteString("---\nname: deep\n")
		for i := 0; i <= depth && i <= 3000; i++ {
			b.WriteString(strings.Repeat(" ", i) + "k:\n")
		}
		if _, err := parseSkill("deep/SKILL.md", []byte(b.String()+"---\n")); err == nil {
			t.Fatalf("depth %d: indentation passed", depth)
		}
	}
	if _, err := parseSkill("ok/SKILL.md", []byte("---\nname: ok\ndescription: \"uses ] and [x] and 'quotes'\"\nmeta: [[1], {a: [2]}]\n---\nbody")); err != nil {
		t.Fatalf("a plain skill: %v", err)
	}
}
