package agents_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/core/agents"
)

// A support agent hands a refund to its billing sub-agent; the refund needs
// approval and nobody is there to give it, so the run halts at the root
// with the asking agent's path. The halted tree is kept as a snapshot,
// restored (as a new process would) and resumed with a decline, which
// billing reports back to support. The model is an offline stand-in.
func Example() {
	// docs:begin
	// An offline model: each agent's reply depends on its system prompt
	// (its soul) and the last message of its transcript.
	model := func(ctx context.Context, req core.GenerateRequest) (core.GenerateResponse, error) {
		soul := req.Messages[0]["content"]
		last := req.Messages[len(req.Messages)-1]
		call := func(name, args string) core.GenerateResponse {
			id := fmt.Sprintf("call_%d", len(req.Messages))
			return core.GenerateResponse{ToolCalls: []core.ToolRequest{{ID: id, Name: name, Arguments: args}}}
		}
		switch {
		case last["role"] == "tool":
			return core.GenerateResponse{Text: fmt.Sprintf("%s: %s", soul, last["content"])}, nil
		case soul == "support":
			return call("task", `{"agent":"billing","prompt":"refund order 42"}`), nil
		default:
			return call("refund", `{"order":42}`), nil
		}
	}
	refund := core.RequireApproval(core.NativeTool("refund", "refund an order", nil,
		func(ctx context.Context, args map[string]any) (string, error) {
			return fmt.Sprintf("refunded order %v", args["order"]), nil
		}))
	billing := agents.New("billing", agents.Spec{Does: "handles refunds", Soul: "billing", Tools: []core.Tool{refund}})
	support := agents.New("support", agents.Spec{Does: "answers customers", Soul: "support", Team: []*agents.Agent{billing}})

	// No WaitFor anywhere: the run halts at the root.
	res, rt := support.Run(agents.Options{Generate: model}, "review order 42")
	fmt.Println(res.Status, strings.Join(agents.PathOf(*res.Pending), " › "), res.Pending.Data["tool"])

	// Keep the halted tree (IndexedDB, a Durable Object) …
	state, err := rt.Snapshot()
	if err != nil {
		panic(err)
	}
	rt.Close(rt.Root, nil)

	// … and later, in a fresh process, restore it and answer.
	rt2, err := agents.RestoreRuntime(agents.Options{Generate: model, Registry: support.Registry()}, state)
	if err != nil {
		panic(err)
	}
	defer rt2.Close(rt2.Root, nil)
	done, err := rt2.Resume(core.AnswerDeclined(res.Pending.ID, "over the refund limit"))
	if err != nil {
		panic(err)
	}
	fmt.Println(done.Status, done.Text)
	// docs:end

	// Output:
	// pending support › billing refund
	// done support: billing: tool "refund" was not run: declined: over the refund limit
}
