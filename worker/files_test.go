package worker

import (
	"context"
	"errors"
	"io/fs"
	"net/http"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/toolnexus/wasm/core"
)

// laggingBlobs is a MemoryBlobs whose listing is taken once and then never
// changes, as a KV list can lag writes; it also counts Gets.
type laggingBlobs struct {
	*MemoryBlobs
	mu     sync.Mutex
	frozen []string
	gets   int
}

func (l *laggingBlobs) Get(ctx context.Context, key string) ([]byte, bool, error) {
	l.mu.Lock()
	l.gets++
	l.mu.Unlock()
	return l.MemoryBlobs.Get(ctx, key)
}

func (l *laggingBlobs) List(ctx context.Context, prefix string, limit int) ([]string, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.frozen == nil {
		keys, err := l.MemoryBlobs.List(ctx, prefix, limit)
		if err != nil {
			return nil, err
		}
		l.frozen = append([]string{}, keys...)
	}
	return l.frozen, nil
}

func TestWorkspaceFSReadWriteRemove(t *testing.T) {
	store := NewMemoryBlobs()
	files := newWorkspaceFS(context.Background(), store, "w1")
	if _, err := files.ReadFile("a.md"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("read of a missing file = %v, want fs.ErrNotExist", err)
	}
	if err := files.WriteFile("/docs/./a.md", []byte("hello")); err != nil {
		t.Fatal(err)
	}
	if err := files.WriteFile("empty.txt", nil); err != nil {
		t.Fatal(err)
	}
	if b, err := files.ReadFile("docs/a.md"); err != nil || string(b) != "hello" {
		t.Fatalf("read = %q, %v", b, err)
	}
	if b, err := files.ReadFile("empty.txt"); err != nil || len(b) != 0 {
		t.Fatalf("an empty file reads as %q, %v; want it to exist", b, err)
	}
	// Stored under the workspace's prefix, so another request sees it.
	if b, ok, _ := store.Get(context.Background(), "files/w1/docs/a.md"); !ok || string(b) != "hello" {
		t.Fatalf("store holds %q (found %v) under files/w1/docs/a.md", b, ok)
	}
	again := newWorkspaceFS(context.Background(), store, "w1")
	if got, _ := again.List(); !reflect.DeepEqual(got, []string{"docs/a.md", "empty.txt"}) {
		t.Fatalf("list in a new request = %v", got)
	}
	if err := again.Remove("docs/a.md"); err != nil {
		t.Fatal(err)
	}
	if err := again.Remove("docs/a.md"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("second remove = %v, want fs.ErrNotExist", err)
	}
	if _, ok, _ := store.Get(context.Background(), "files/w1/docs/a.md"); ok {
		t.Fatal("removed file still in the store")
	}
	// Another workspace sees none of it.
	other := newWorkspaceFS(context.Background(), store, "w2")
	if got, _ := other.List(); len(got) != 0 {
		t.Fatalf("workspace w2 lists %v", got)
	}
}

func TestWorkspaceFSSeesItsOwnWritesWhenTheListingLags(t *testing.T) {
	store := &laggingBlobs{MemoryBlobs: NewMemoryBlobs()}
	seed := newWorkspaceFS(context.Background(), store.MemoryBlobs, "w")
	for _, p := range []string{"old.md", "gone.md"} {
		if err := seed.WriteFile(p, []byte(p)); err != nil {
			t.Fatal(err)
		}
	}
	files := newWorkspaceFS(context.Background(), store, "w")
	if got, _ := files.List(); !reflect.DeepEqual(got, []string{"gone.md", "old.md"}) {
		t.Fatalf("first list = %v", got)
	}
	if err := files.WriteFile("new.md", []byte("n")); err != nil {
		t.Fatal(err)
	}
	if err := files.Remove("gone.md"); err != nil {
		t.Fatal(err)
	}
	if got, _ := files.List(); !reflect.DeepEqual(got, []string{"new.md", "old.md"}) {
		t.Fatalf("list after a write and a removal = %v, want [new.md old.md]", got)
	}
	gets := store.gets
	for i := 0; i < 3; i++ {
		if _, err := files.ReadFile("old.md"); err != nil {
			t.Fatal(err)
		}
	}
	if store.gets-gets != 1 {
		t.Fatalf("three reads of one file made %d store calls, want 1", store.gets-gets)
	}
}

// failingBlobs fails every call.
type failingBlobs struct{}

var errStoreDown = errors.New("store is down")

func (failingBlobs) Get(context.Context, string) ([]byte, bool, error) {
	return nil, false, errStoreDown
}
func (failingBlobs) Put(context.Context, string, []byte) error { return errStoreDown }
func (failingBlobs) Delete(context.Context, string) error      { return errStoreDown }
func (failingBlobs) List(context.Context, string, int) ([]string, error) {
	return nil, errStoreDown
}

func TestWorkspaceFSRefusals(t *testing.T) {
	files := newWorkspaceFS(context.Background(), NewMemoryBlobs(), "w")
	for _, c := range []struct {
		name string
		err  error
		want string
	}{
		{"too big", files.WriteFile("big.bin", make([]byte, MaxFileBytes+1)), "over the file store's limit"},
		{"climbs", files.WriteFile("../x", []byte("x")), "leaves the file system root"},
		{"long key", files.WriteFile(strings.Repeat("d/", 300)+"f", []byte("x")), "too long for the file store"},
	} {
		if c.err == nil || !strings.Contains(c.err.Error(), c.want) {
			t.Errorf("%s: error %v, want it to mention %q", c.name, c.err, c.want)
		}
	}
	if got, _ := files.List(); len(got) != 0 {
		t.Fatalf("refused writes left files: %v", got)
	}
	down := newWorkspaceFS(context.Background(), failingBlobs{}, "w")
	if _, err := down.ReadFile("a"); !errors.Is(err, errStoreDown) || errors.Is(err, fs.ErrNotExist) {
		t.Errorf("read on a failing store = %v; want the store's error, not a missing file", err)
	}
	if err := down.WriteFile("a", []byte("x")); !errors.Is(err, errStoreDown) {
		t.Errorf("write on a failing store = %v", err)
	}
	if _, err := down.List(); !errors.Is(err, errStoreDown) {
		t.Errorf("list on a failing store = %v", err)
	}
}

func TestValidWorkspaceID(t *testing.T) {
	for id, want := range map[string]bool{
		"default": true, "team-1.alpha_2": true, strings.Repeat("a", 64): true,
		"": false, ".": false, "..": false, "a/b": false, "a b": false, strings.Repeat("a", 65): false, "é": false,
	} {
		if got := validWorkspaceID(id); got != want {
			t.Errorf("validWorkspaceID(%q) = %v, want %v", id, got, want)
		}
	}
}

func TestBuiltinsSetting(t *testing.T) {
	names := func(v any) []string {
		cfg, ok := v.(core.BuiltinsConfig)
		if !ok {
			return nil
		}
		var on []string
		for _, n := range core.BuiltinNames {
			if cfg.Tools[n] {
				on = append(on, n)
			}
		}
		return on
	}
	all := core.BuiltinNames
	noFiles := []string{"question", "webfetch", "todowrite"}
	for _, c := range []struct {
		setting string
		store   bool
		want    []string // nil: off
		err     string
	}{
		{"", true, nil, ""},
		{"off", true, nil, ""},
		{"on", true, all, ""},
		{"on", false, noFiles, ""},
		{" read, grep ,question", true, []string{"question", "read", "grep"}, ""},
		{"question", false, []string{"question"}, ""},
		{"read", false, nil, "BUILTINS names read, which needs an R2 bucket bound as FILES_R2"},
		{"bash", true, nil, `BUILTINS names an unknown tool "bash"`},
	} {
		h := NewHandler(Options{Getenv: func(k string) string {
			if k == "BUILTINS" {
				return c.setting
			}
			return ""
		}})
		if c.store {
			h.opts.Files = func() BlobStore { return NewMemoryBlobs() }
		}
		v, err := h.builtinsOption(context.Background(), "")
		if !core.BuiltinsLinked() && (c.want != nil || c.err != "") {
			c.err = "this build has no built-in tools"
		}
		if c.err != "" {
			var ce *ConfigError
			if !errors.As(err, &ce) || !strings.Contains(err.Error(), c.err) {
				t.Errorf("BUILTINS=%q store=%v: error %v, want a ConfigError with %q", c.setting, c.store, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("BUILTINS=%q store=%v: %v", c.setting, c.store, err)
			continue
		}
		if got := names(v); !reflect.DeepEqual(got, c.want) {
			t.Errorf("BUILTINS=%q store=%v: tools %v, want %v", c.setting, c.store, got, c.want)
		}
	}
}

// filesHarness is a harness with BUILTINS=on over an in-memory file store.
// A build without the built-ins (a main without core/builtins)
// skips: TestBuiltinsSetting covers its refusal.
func filesHarness(t *testing.T) (*harness, *MemoryBlobs) {
	if !core.BuiltinsLinked() {
		t.Skip("this build does not link the built-in tools")
	}
	hs := newHarness(t, func(env map[string]string) { env["BUILTINS"] = "on" })
	store := NewMemoryBlobs()
	hs.h.opts.Files = func() BlobStore { return store }
	return hs, store
}

// approve resumes a pending run with ok: true and returns the result.
func approve(t *testing.T, hs *harness, run map[string]any) map[string]any {
	t.Helper()
	code, res := hs.Post("/v1/resume", map[string]any{"state": run["state"], "answer": map[string]any{"id": pendingID(run), "ok": true}})
	if code != http.StatusOK {
		t.Fatalf("resume = %d %v", code, res)
	}
	return res
}

func TestBuiltinWriteHaltsThenLandsInTheWorkspace(t *testing.T) {
	hs, store := filesHarness(t)
	code, run := hs.Post("/v1/run", map[string]any{"workspace": "team-a",
		"prompt": `call write {"path":"notes/plan.md","content":"ship it"}`})
	if code != http.StatusOK || run["status"] != "pending" {
		t.Fatalf("write did not halt for approval: %d %v", code, run)
	}
	if data, _ := run["pending"].(map[string]any)["data"].(map[string]any); data["tool"] != "write" {
		t.Fatalf("pending = %v", run["pending"])
	}
	if _, ok, _ := store.Get(context.Background(), "files/team-a/notes/plan.md"); ok {
		t.Fatal("the file was written before approval")
	}
	res := approve(t, hs, run)
	if res["status"] != "done" || res["text"] != "done: Wrote 7 bytes to notes/plan.md" {
		t.Fatalf("resume = %v", res)
	}
	// The state token carried the workspace: the file is in team-a's.
	if b, ok, _ := store.Get(context.Background(), "files/team-a/notes/plan.md"); !ok || string(b) != "ship it" {
		t.Fatalf("store holds %q (found %v)", b, ok)
	}
	// A later request of the same workspace reads it; another does not.
	_, read := hs.Post("/v1/run", map[string]any{"workspace": "team-a", "prompt": `call read {"path":"notes/plan.md"}`})
	if read["text"] != "done: ship it" {
		t.Fatalf("read in team-a = %v", read)
	}
	_, glob := hs.Post("/v1/run", map[string]any{"prompt": `call glob {"pattern":"**/*.md"}`})
	if glob["text"] != "done: No files match **/*.md" {
		t.Fatalf("glob in the default workspace = %v", glob)
	}
}

func TestBuiltinDeclinedWriteWritesNothing(t *testing.T) {
	hs, store := filesHarness(t)
	_, run := hs.Post("/v1/run", map[string]any{"prompt": `call write {"path":"a.txt","content":"x"}`})
	code, res := hs.Post("/v1/resume", map[string]any{"state": run["state"], "answer": map[string]any{"id": pendingID(run), "ok": false, "reason": "not now"}})
	if code != http.StatusOK || res["status"] != "done" {
		t.Fatalf("resume = %d %v", code, res)
	}
	if keys, _ := store.List(context.Background(), "files/", 10); len(keys) != 0 {
		t.Fatalf("a declined write stored %v", keys)
	}
}

// TestBuiltinGrepUsesTheMatcher: Options.Match compiles grep's patterns (on
// Workers it is JavaScript's RegExp, tested on workerd by
// tests/tools-worker.test.mjs).
func TestBuiltinGrepUsesTheMatcher(t *testing.T) {
	hs, store := filesHarness(t)
	var patterns []string
	hs.h.opts.Match = func(pattern string) (func(string) bool, error) {
		patterns = append(patterns, pattern)
		return func(line string) bool { return strings.HasPrefix(line, "func H") }, nil
	}
	store.Put(context.Background(), "files/default/src/a.go", []byte("package a\nfunc Hello() {}\n"))
	_, res := hs.Post("/v1/run", map[string]any{"prompt": `call grep {"pattern":"func [A-Z]"}`})
	if res["text"] != "done: src/a.go:2:func Hello() {}" || !reflect.DeepEqual(patterns, []string{"func [A-Z]"}) {
		t.Fatalf("grep = %v (patterns compiled: %q)", res, patterns)
	}
}

func TestWorkspaceAndBuiltinsRefusals(t *testing.T) {
	hs, _ := filesHarness(t)
	code, body := hs.Post("/v1/run", map[string]any{"prompt": "hi", "workspace": "../etc"})
	if code != http.StatusBadRequest || body["error"].(map[string]any)["code"] != "invalid_field" {
		t.Fatalf("bad workspace = %d %v", code, body)
	}
	hs.env["BUILTINS"] = "write"
	hs.h.opts.Files = func() BlobStore { return nil }
	code, body = hs.Post("/v1/run", map[string]any{"prompt": "hi"})
	if code != http.StatusInternalServerError || !strings.Contains(body["error"].(map[string]any)["message"].(string), "BUILTINS names write") {
		t.Fatalf("write without a files binding = %d %v", code, body)
	}
	rec := hs.Do(http.MethodGet, "/v1/tools", "")
	if rec.Code != http.StatusInternalServerError || !strings.Contains(rec.Body.String(), "FILES_KV") {
		t.Fatalf("/v1/tools = %d %s", rec.Code, rec.Body.String())
	}
}

// TestBuiltinQuestionRoundTrip: the question built-in halts with kind
// "question"; the caller's answers come back through /v1/resume as the tool
// result.
func TestBuiltinQuestionRoundTrip(t *testing.T) {
	if !core.BuiltinsLinked() {
		t.Skip("this build does not link the built-in tools")
	}
	hs := newHarness(t, func(env map[string]string) { env["BUILTINS"] = "question,todowrite" })
	_, run := hs.Post("/v1/run", map[string]any{"prompt": `call question {"questions":[{"question":"Which plan?","options":["basic","pro"]}]}`})
	pending, _ := run["pending"].(map[string]any)
	if run["status"] != "pending" || pending["kind"] != "question" || pending["prompt"] != "Which plan? (options: basic, pro)" {
		t.Fatalf("run = %v", run)
	}
	code, res := hs.Post("/v1/resume", map[string]any{"state": run["state"],
		"answer": map[string]any{"id": pendingID(run), "ok": true, "data": map[string]any{"answers": []any{"pro"}}}})
	if code != http.StatusOK || res["status"] != "done" || !strings.HasSuffix(res["text"].(string), "pro") {
		t.Fatalf("resume = %d %v", code, res)
	}
	rec := hs.Do(http.MethodGet, "/v1/tools", "")
	if !strings.Contains(rec.Body.String(), `"name":"todowrite"`) || strings.Contains(rec.Body.String(), `"name":"webfetch"`) {
		t.Fatalf("/v1/tools with BUILTINS=question,todowrite: %s", rec.Body.String())
	}
}
