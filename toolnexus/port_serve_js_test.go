//go:build js

package toolnexus

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// TestPortServeSaysWhatASandboxCannotDo: under js/wasm Serve cannot
// listen on a port and the file task store has no files, and each says so.
func TestPortServeSaysWhatASandboxCannotDo(t *testing.T) {
	tk, err := CreateToolkit(context.Background(), Options{Builtins: false})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tk.Serve("127.0.0.1:0", ServeOptions{MCP: &MCPServeConfig{}}); err == nil || !strings.Contains(err.Error(), "cannot listen on a port") {
		t.Fatalf("Serve = %v", err)
	}
	if err := NewFileTaskStore("/tasks").Save(A2ATask{ID: "t"}); !errors.Is(err, ErrNoHostFiles) {
		t.Fatalf("FileTaskStore.Save = %v", err)
	}
	if got, err := NewFileTaskStore("/tasks").Get("t"); got != nil || err != nil {
		t.Fatalf("FileTaskStore.Get = %v %v", got, err)
	}
}
