package unlinked

import (
	"testing"

	"github.com/toolnexus/wasm/core/tool"
)

// A program that does not import core/a2a has no A2A client: hosts then
// refuse A2A agents with an error naming the build that has it.
func TestA2ANotLinked(t *testing.T) {
	if tool.A2A() != nil {
		t.Fatal("core/a2a is linked into a test that never imports it")
	}
}
