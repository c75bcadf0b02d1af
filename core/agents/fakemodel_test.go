package agents

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/toolnexus/wasm/core"
)

// script is one agent's scripted behaviour: given the transcript it has so
// far (OpenAI shape, system prompt first), what it replies.
type script func(msgs []map[string]any) core.GenerateResponse

// fakeModel is an in-process model shared by every agent of a runtime: it
// picks the script by the agent's system prompt (its soul), so one Options
// value drives a whole team offline.
type fakeModel struct {
	mu      sync.Mutex
	scripts map[string]script
	calls   map[string]int
	seq     int
	// gates hold an agent's model calls until the channel is closed (or
	// the run's context ends).
	gates map[string]chan struct{}
}

func newFakeModel(scripts map[string]script) *fakeModel {
	return &fakeModel{scripts: scripts, calls: map[string]int{}, gates: map[string]chan struct{}{}}
}

func (f *fakeModel) generate(ctx context.Context, req core.GenerateRequest) (core.GenerateResponse, error) {
	soul := ""
	if len(req.Messages) > 0 && req.Messages[0]["role"] == "system" {
		soul, _ = req.Messages[0]["content"].(string)
	}
	f.mu.Lock()
	s, ok := f.scripts[soul]
	f.calls[soul]++
	gate := f.gates[soul]
	f.mu.Unlock()
	if !ok {
		return core.GenerateResponse{}, fmt.Errorf("fake model: no script for soul %q", soul)
	}
	if gate != nil {
		select {
		case <-gate:
		case <-ctx.Done():
			return core.GenerateResponse{}, ctx.Err()
		}
	}
	if err := ctx.Err(); err != nil {
		return core.GenerateResponse{}, err
	}
	out := s(req.Messages)
	if out.Usage.TotalTokens == 0 {
		out.Usage = core.Usage{PromptTokens: 7, CompletionTokens: 3, TotalTokens: 10}
	}
	return out, nil
}

// callsFor is how many model calls the agent with this soul made.
func (f *fakeModel) callsFor(soul string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls[soul]
}

// toolCall builds a reply asking for one tool call with a unique id.
func (f *fakeModel) toolCall(name, args string) core.GenerateResponse {
	f.mu.Lock()
	f.seq++
	id := fmt.Sprintf("call_%d", f.seq)
	f.mu.Unlock()
	return core.GenerateResponse{ToolCalls: []core.ToolRequest{{ID: id, Name: name, Arguments: args}}}
}

func last(msgs []map[string]any) map[string]any {
	if len(msgs) == 0 {
		return nil
	}
	return msgs[len(msgs)-1]
}

func content(m map[string]any) string {
	s, _ := m["content"].(string)
	return s
}

// delegateThenReport is a parent's script: delegate prompt to agent, then
// report what came back.
func (f *fakeModel) delegateThenReport(agent, prompt, prefix string) script {
	return func(msgs []map[string]any) core.GenerateResponse {
		if m := last(msgs); m["role"] == "tool" {
			return core.GenerateResponse{Text: prefix + content(m)}
		}
		return f.toolCall("task", fmt.Sprintf(`{"agent":%q,"prompt":%q}`, agent, prompt))
	}
}

// callThenReport is a leaf's script: call tool with args, then report.
func (f *fakeModel) callThenReport(tool, args, prefix string) script {
	return func(msgs []map[string]any) core.GenerateResponse {
		if m := last(msgs); m["role"] == "tool" {
			return core.GenerateResponse{Text: prefix + content(m)}
		}
		return f.toolCall(tool, args)
	}
}

// refundLog records the refunds that actually ran.
type refundLog struct {
	mu   sync.Mutex
	runs []string
}

func (l *refundLog) count() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.runs)
}

// refundTool needs approval; it records each run.
func refundTool(log *refundLog) core.Tool {
	return core.RequireApproval(core.NativeTool("refund", "refund an order",
		core.JSONSchema{"type": "object", "properties": map[string]any{"order": map[string]any{"type": "number"}}},
		func(ctx context.Context, args map[string]any) (string, error) {
			log.mu.Lock()
			defer log.mu.Unlock()
			log.runs = append(log.runs, fmt.Sprint(args["order"]))
			return fmt.Sprintf("refunded order %v", args["order"]), nil
		}))
}

// supportTeam is the three-level scenario: support › billing › refund.
type supportTeam struct {
	model   *fakeModel
	refunds *refundLog
	support *Agent
	billing *Agent
}

func newSupportTeam(t testing.TB) *supportTeam {
	t.Helper()
	st := &supportTeam{refunds: &refundLog{}}
	st.model = newFakeModel(nil)
	st.model.scripts = map[string]script{
		"support": st.model.delegateThenReport("billing", "refund order 42", "support: "),
		"billing": st.model.callThenReport("refund", `{"order":42}`, "billing: "),
	}
	st.billing = New("billing", Spec{Does: "handles refunds", Soul: "billing", Tools: []core.Tool{refundTool(st.refunds)}})
	st.support = New("support", Spec{Does: "answers customers", Soul: "support", Team: []*Agent{st.billing}})
	return st
}

func (st *supportTeam) options() Options {
	return Options{Generate: st.model.generate}
}

func pathString(req *core.Request) string {
	if req == nil {
		return "<nil>"
	}
	return strings.Join(PathOf(*req), "/")
}
