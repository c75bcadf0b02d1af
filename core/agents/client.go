package agents

import (
	"context"
	"strconv"

	"github.com/toolnexus/wasm/core"
)

// budgetStop ends a run from the BeforeLLM hook when a pool on the agent's
// chain is exhausted; finish turns it into an "incomplete" result.
type budgetStop struct{ limit string }

func (e *budgetStop) Error() string { return "agents: budget exhausted (" + e.limit + ")" }

// asBudgetStop finds a budgetStop in err's chain. It walks Unwrap by hand:
// errors.As would link reflection into the wasm (~25 KB) for one type.
func asBudgetStop(err error) *budgetStop {
	for err != nil {
		switch e := err.(type) {
		case *budgetStop:
			return e
		case interface{ Unwrap() []error }:
			for _, inner := range e.Unwrap() {
				if s := asBudgetStop(inner); s != nil {
					return s
				}
			}
			return nil
		case interface{ Unwrap() error }:
			err = e.Unwrap()
		default:
			return nil
		}
	}
	return nil
}

// client builds the core client for one of h's turns.
func (rt *Runtime) client(h *Handle, def Def, maxTurns int) *core.Client {
	o := rt.opts.ClientOptions
	llm := rt.opts.LLM
	if llm == nil {
		llm = &LLMOptions{}
	}
	o.Model = def.Model
	if o.Model == "" || o.Model == "inherit" {
		o.Model = llm.Model
	}
	if o.Model == "" {
		o.Model = "default"
	}
	o.SystemPrompt = def.Soul
	o.MaxTurns = maxTurns
	o.WaitFor, o.WaitForContext = nil, rt.interpreter(h)
	rt.setHooks(&o, h, def)
	o.OnMetric = rt.metricSink(h, def)
	if rt.opts.Generate != nil {
		return generateClient(rt.gatedGenerate, o)
	}
	if llm.BaseURL != "" {
		o.BaseURL = llm.BaseURL
	}
	if llm.Style != "" {
		o.Style = llm.Style
	}
	if llm.APIKey != "" {
		o.APIKey = llm.APIKey
	}
	if llm.Headers != nil {
		o.Headers = llm.Headers
	}
	base := rt.opts.Transport
	if base == nil {
		base = o.Transport
	}
	if base == nil {
		base = core.DefaultTransport()
	}
	o.Transport = core.TransportFunc(func(ctx context.Context, req *core.HTTPRequest) (*core.HTTPResponse, error) {
		if err := rt.acquireTurn(ctx); err != nil {
			return nil, err
		}
		defer rt.releaseTurn()
		return base.Do(ctx, req)
	})
	return core.CreateClient(o)
}

// gatedGenerate is Options.Generate behind the global turn gate.
func (rt *Runtime) gatedGenerate(ctx context.Context, req core.GenerateRequest) (core.GenerateResponse, error) {
	if err := rt.acquireTurn(ctx); err != nil {
		return core.GenerateResponse{}, err
	}
	defer rt.releaseTurn()
	return rt.opts.Generate(ctx, req)
}

// acquireTurn takes a slot of the global turn gate, or gives up when ctx
// ends first, so a dead run never holds or waits for a slot.
func (rt *Runtime) acquireTurn(ctx context.Context) error {
	select {
	case rt.turnGate <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	rt.mu.Lock()
	rt.inTurns++
	rt.maxInTurns = max(rt.maxInTurns, rt.inTurns)
	rt.mu.Unlock()
	return nil
}

func (rt *Runtime) releaseTurn() {
	rt.mu.Lock()
	rt.inTurns--
	rt.mu.Unlock()
	<-rt.turnGate
}

// MaxObservedConcurrentTurns is the most model calls that were in flight
// at once (the global turn gate's high-water mark).
func (rt *Runtime) MaxObservedConcurrentTurns() int {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	return rt.maxInTurns
}

// metricSink keeps the live budget ledger from core's metric events (each
// model call's tokens, each finished tool call) and hands them on, labelled
// with the agent's path.
func (rt *Runtime) metricSink(h *Handle, def Def) func(core.MetricEvent) {
	own, all := def.OnMetric, rt.opts.OnMetric
	return func(e core.MetricEvent) {
		switch {
		case e.Kind == "llm" && e.Usage.TotalTokens > 0:
			rt.mu.Lock()
			rt.rollupLocked(h, e.Usage.TotalTokens, 0)
			rt.mu.Unlock()
		case e.Kind == "tool" && !e.Pending:
			rt.mu.Lock()
			rt.rollupLocked(h, 0, 1)
			rt.mu.Unlock()
		}
		// Observers must not break the run (a streamed run calls this on
		// core's goroutine, beyond execute's recover).
		defer func() { _ = recover() }()
		if own != nil {
			own(e)
		}
		if all != nil {
			all(MetricEvent{MetricEvent: e, Handle: h.ID, Path: h.path})
		}
	}
}

// verifyCompletion runs the completion gate where the run would report
// "done": a failed check is fed back and the agent tries again, up to
// MaxAttempts; then the result is "incomplete" with Limit "completion". A
// suspension, a limit stop or an error is never re-judged.
// It also returns how many attempts ran.
func verifyCompletion(ctx context.Context, c *core.Client, tk *core.Toolkit, comp *Completion, r core.RunResult, err error) (core.RunResult, int, error) {
	if comp == nil || comp.Verify == nil || err != nil || r.Status != core.StatusDone {
		return r, 1, err
	}
	turns, usage, calls := r.Turns, r.Usage, r.ToolCalls
	for attempt := 1; ; attempt++ {
		ok, reason := comp.Verify(r)
		if ok {
			return r, attempt, nil
		}
		if attempt >= comp.MaxAttempts {
			r.Status, r.Limit = core.StatusIncomplete, LimitCompletion
			r.Text = "completion.verify failed " + strconv.Itoa(attempt) + "×: " + reason
			return r, attempt, nil
		}
		r, err = c.RunWithHistory(ctx, "Your work did not verify: "+reason+". Fix it and finish.", tk, r.Messages)
		turns += r.Turns
		usage.PromptTokens += r.Usage.PromptTokens
		usage.CompletionTokens += r.Usage.CompletionTokens
		usage.TotalTokens += r.Usage.TotalTokens
		// The gate judges all the attempts' work: an agent must not pass by
		// leaving out, on the retry, the calls that failed the check.
		calls = append(calls, r.ToolCalls...)
		r.Turns, r.Usage, r.ToolCalls, r.ToolCallCount = turns, usage, calls, len(calls)
		if err != nil || r.Status != core.StatusDone {
			// A limit stop during a retry must not hide why the agent was
			// retrying: the caller gets both reasons (a suspension is not a
			// stop, so it is left as it is).
			if err == nil && r.Status != core.StatusPending {
				r.Text += " [while verifying: attempt " + strconv.Itoa(attempt+1) + " last failed: " + reason + "]"
			}
			return r, attempt + 1, err
		}
	}
}
