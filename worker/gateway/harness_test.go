package gateway

import (
	"testing"

	"github.com/toolnexus/wasm/worker"
	"github.com/toolnexus/wasm/worker/internal/workertest"
)

// newHarness is a Worker with the gateway mounted, on the scripted model
// (workertest.Harness); edit changes the environment first.
func newHarness(t *testing.T, edit func(env map[string]string)) *workertest.Harness {
	t.Helper()
	hs := workertest.NewHarness(t, edit)
	hs.Handler = worker.NewHandler(worker.Options{Getenv: hs.Getenv, Transport: workertest.Transport(hs.LLM), Logf: hs.Logf}, Mount)
	return hs
}
