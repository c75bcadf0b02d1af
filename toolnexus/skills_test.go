package toolnexus

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// A skill found on disk tells the model its base directory as a file://
// URL, and lists its other files by their host paths.
func TestSkillOnDiskNamesItsDirectory(t *testing.T) {
	if runtime.GOOS == "js" {
		t.Skip("js/wasm reads no host skill directories")
	}
	root := t.TempDir()
	dir := filepath.Join(root, "greet")
	if err := os.MkdirAll(filepath.Join(dir, "scripts"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{
		"SKILL.md":       "---\nname: greet\ndescription: says hello\n---\nSay hello.\n",
		"scripts/run.sh": "echo hello\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(name)), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	src := LoadSkills(root)
	res, err := src.Tool.Execute(map[string]any{"name": "greet"}, nil)
	if err != nil || res.IsError {
		t.Fatalf("skill tool: %+v %v", res, err)
	}
	for _, want := range []string{"Say hello.", fileURL(dir), "<file>" + filepath.Join(dir, "scripts", "run.sh") + "</file>"} {
		if !strings.Contains(res.Output, want) {
			t.Errorf("output lacks %q:\n%s", want, res.Output)
		}
	}
}
