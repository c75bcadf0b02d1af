//go:build !js

package journal

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestFileKeepsTheRunAcrossOpens(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.jsonl")
	ctx := context.Background()
	f, err := OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range sample()[:5] {
		if err := f.Record(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.Record(ctx, sample()[4]); !errors.Is(err, ErrDuplicate) {
		t.Fatalf("duplicate answer: %v", err)
	}
	f.Close()
	// A crash cut the next line off before its newline.
	raw, _ := os.ReadFile(path)
	os.WriteFile(path, append(raw, `{"kind":"call","turn":1,"ca`...), 0o600)
	f, err = OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got, _ := f.Load(ctx)
	if len(got) != 5 || !reflect.DeepEqual(got[4], sample()[4]) {
		t.Fatalf("reopened: %d entries", len(got))
	}
	if err := f.Record(ctx, sample()[5]); err != nil {
		t.Fatal(err)
	}
	if raw, _ := os.ReadFile(path); strings.Count(string(raw), "\n") != 6 || strings.Contains(string(raw), `"ca{`) {
		t.Fatalf("file after the cut line:\n%s", raw)
	}
	// A bad line in the middle is an error, not skipped.
	os.WriteFile(path, []byte("{\"kind\":\"start\"}\nnot json\n"), 0o600)
	if _, err := OpenFile(path); err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Fatalf("bad line: %v", err)
	}
}
