package agents

// The one place where toolnexus (root package) values become core values
// and back. Most root types are aliases of core's, so those are the
// identity; Hooks, Client and Toolkit are the root's own types, whose core
// values toolnexus hands over through toolnexus/internal/coreof.

import (
	"github.com/toolnexus/wasm/core"
	tn "github.com/toolnexus/wasm/toolnexus"
	"github.com/toolnexus/wasm/toolnexus/internal/coreof"
)

func toolsToCore(ts []tn.Tool) []core.Tool { return ts }

func toolFromCore(t core.Tool) tn.Tool { return t }

func hooksToCore(h *tn.Hooks) *core.Hooks { return coreof.Hooks(h) }

func metricSinkToCore(f func(tn.MetricEvent)) func(core.MetricEvent) { return f }

func waitForToCore(f func(tn.Request) (tn.Answer, error)) func(core.Request) (core.Answer, error) {
	return f
}

func storeToCore(s tn.ConversationStore) core.ConversationStore { return s }

func styleToCore(s tn.ClientStyle) core.Style { return s }

func answerToCore(a tn.Answer) core.Answer { return a }

func requestFromCore(r *core.Request) *tn.Request { return r }

func verifyToCore(f func(tn.RunResult) (bool, string)) func(core.RunResult) (bool, string) {
	return f
}

func clientToCore(c *tn.Client) *core.Client { return coreof.Client(c) }

func toolkitToCore(tk *tn.Toolkit) *core.Toolkit { return coreof.Toolkit(tk) }

func runResultFromCore(r core.RunResult) tn.RunResult { return r }
