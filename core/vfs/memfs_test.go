package vfs

import (
	"errors"
	"io/fs"
	"strings"
	"testing"
)

func TestCleanPath(t *testing.T) {
	tests := []struct{ in, want, err string }{
		{"a/b.txt", "a/b.txt", ""},
		{"/a//b/./c.txt", "a/b/c.txt", ""},
		{`a\b.txt`, "a/b.txt", ""},
		{"a/../b.txt", "b.txt", ""},
		{"../b.txt", "", "leaves"},
		{"a/../../b", "", "leaves"},
		{"", "", "names no file"},
		{"/", "", "names no file"},
		{"a\x00b", "", "NUL"},
	}
	for _, tc := range tests {
		got, err := CleanPath(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("CleanPath(%q) = %q, %v; want error %q", tc.in, got, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("CleanPath(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

func TestMemFSIsAnFS(t *testing.T) {
	m, err := NewMemFS(map[string]string{"skills/a/SKILL.md": "x", "top.txt": "y"})
	if err != nil {
		t.Fatal(err)
	}
	var seen []string
	err = fs.WalkDir(m, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		seen = append(seen, p)
		return nil
	})
	if err != nil || strings.Join(seen, ",") != ".,skills,skills/a,skills/a/SKILL.md,top.txt" {
		t.Fatalf("walk = %v, %v", seen, err)
	}
	if b, err := fs.ReadFile(m, "top.txt"); err != nil || string(b) != "y" {
		t.Fatalf("ReadFile = %q, %v", b, err)
	}
	if _, err := m.Open("missing"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("Open(missing) = %v", err)
	}
	var changes []string
	m.OnChange = func(name string, _ []byte, removed bool) {
		if removed {
			name = "-" + name
		}
		changes = append(changes, name)
	}
	if err := m.WriteFile("skills", []byte("x")); err == nil {
		t.Fatal("writing over a folder must fail")
	}
	_ = m.WriteFile("n.txt", []byte("1"))
	_ = m.Remove("n.txt")
	if err := m.Remove("n.txt"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("second Remove = %v", err)
	}
	if strings.Join(changes, ",") != "n.txt,-n.txt" {
		t.Fatalf("OnChange saw %v", changes)
	}
}
