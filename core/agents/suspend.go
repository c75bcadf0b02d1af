package agents

import (
	"context"
	"errors"
	fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx
	"strings"

	"github.com/toolnexus/wasm/core"
)

// ErrNotSuspended is returned by Resume when no handle waits on an Answer.
var ErrNotSuspended = errors.New("agents: no suspended agent to resume")

// interpreter returns the answering function for h's runs: the nearest
// WaitForContext or WaitFor on the chain h → root, else the runtime's,
// else nil (a suspension then halts the run and the handle parks
// durably). The interpreter sees the Request with the asking agent's path.
func (rt *Runtime) interpreter(h *Handle) func(context.Context, core.Request) (core.Answer, error) {
	wf, by := nearestWaitFor(h)
	if wf == nil {
		wf, by = pickWaitFor(rt.opts.WaitForContext, rt.opts.WaitFor), "runtime"
	}
	if wf == nil {
		return nil
	}
	return func(ctx context.Context, req core.Request) (core.Answer, error) {
		shown := presentAs(h, req)
		rt.mu.Lock()
		h.state, h.pendingReq = StateSuspended, &shown
		rt.tracef("%s: running→suspended (pending %q: %s)", h.ID, shown.Kind, shown.Prompt)
		if by == h.ID {
			by = "self"
		}
		rt.tracef("%s: escalate → %s answers (\"nearest interpreter\")", h.ID, by)
		rt.mu.Unlock()
		rt.emit(Event{Type: "suspended", Handle: h.ID, Path: h.path, State: StateSuspended, Request: &shown})
		ans, err := wf(ctx, shown)
		rt.mu.Lock()
		if h.state == StateSuspended {
			h.state = StateRunning
		}
		rt.tracef("%s: suspended→running (Answer ok=%t)", h.ID, err == nil && ans.Ok)
		h.pendingReq = nil
		rt.mu.Unlock()
		rt.emit(Event{Type: "resumed", Handle: h.ID, Path: h.path, State: StateRunning})
		return ans, err
	}
}

// nearestWaitFor also returns the id of the handle whose WaitFor it is.
func nearestWaitFor(h *Handle) (func(context.Context, core.Request) (core.Answer, error), string) {
	for a := h; a != nil; a = a.parent {
		if wf := pickWaitFor(a.def.WaitForContext, a.def.WaitFor); wf != nil {
			return wf, a.ID
		}
	}
	return nil, ""
}

// pickWaitFor prefers the context-aware form (it can withdraw a question
// when the turn is interrupted or closed).
func pickWaitFor(withCtx func(context.Context, core.Request) (core.Answer, error), plain func(core.Request) (core.Answer, error)) func(context.Context, core.Request) (core.Answer, error) {
	switch {
	case withCtx != nil:
		return withCtx
	case plain != nil:
		return func(_ context.Context, req core.Request) (core.Answer, error) { return plain(req) }
	}
	return nil
}

// presentAs stamps h's path into a copy of req, unless req already comes
// from one of h's descendants (a sub-agent's suspension keeps the leaf's
// path as it travels up).
func presentAs(h *Handle, req core.Request) core.Request {
	if from, _ := req.Data["handle"].(string); strings.HasPrefix(from, h.ID+"/") {
		return req
	}
	data := make(map[string]any, len(req.Data)+2)
	for k, v := range req.Data {
		data[k] = v
	}
	data["path"] = append([]string(nil), h.path...)
	data["handle"] = h.ID
	req.Data = data
	return req
}

// PathOf returns the asking agent's path of a Request the runtime
// presented (["support", "billing"]), whether Data["path"] holds a
// []string or, after a JSON round trip, a []any.
func PathOf(req core.Request) []string {
	switch p := req.Data["path"].(type) {
	case []string:
		return append([]string(nil), p...)
	case []any:
		out := make([]string, 0, len(p))
		for _, v := range p {
			if s, ok := v.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// Resume delivers answer to the deepest suspended agent whose halted turn
// waits on answer.ID, and that turn continues where it stopped (core's
// RunWithAnswer: an approved call runs, a declined one becomes an error
// result the agent can recover from). Each suspended ancestor whose own
// halted turn waits on that agent then continues too: its task call runs
// again and re-attaches to the existing child, taking the child's result.
// It returns the top-level agent's result, which is "pending" again when
// an agent of the tree still (or newly) waits on a request.
func (rt *Runtime) Resume(answer core.Answer) (TaskResult, error) {
	rt.mu.Lock()
	if rt.resuming {
		rt.mu.Unlock()
		return TaskResult{}, fmt.Errorf("%w: another Resume is running", ErrBusy)
	}
	leaf := findHalted(rt.Root, answer.ID)
	if leaf == nil {
		other := findHalted(rt.Root, "")
		rt.mu.Unlock()
		if other == nil {
			return TaskResult{}, ErrNotSuspended
		}
		return TaskResult{}, fmt.Errorf("%w: no agent waits on request %q", core.ErrCannotResume, answer.ID)
	}
	rt.resuming = true
	rt.tracef("%s: suspended→idle (resume with Answer(ok=%t) at checkpoint (turns so far: %d))", leaf.ID, answer.Ok, leaf.turnsTotal)
	rt.mu.Unlock()
	defer func() {
		rt.mu.Lock()
		rt.resuming = false
		rt.mu.Unlock()
	}()
	r := rt.resumeHandle(leaf, answer)
	h := leaf
	for {
		rt.mu.Lock()
		p := h.parent
		bound := p != nil && p != rt.Root && p.state == StateSuspended && p.halt != nil && p.halt.request.ID == h.boundReq
		if !bound {
			top := rt.topResultLocked(h, r)
			rt.mu.Unlock()
			return top, nil
		}
		if r.Status == TaskStatusPending {
			rt.repropagateLocked(h, r)
			top := rt.topResultLocked(h, r)
			rt.mu.Unlock()
			return top, nil
		}
		ans := core.Answer{ID: p.halt.request.ID, Ok: true}
		rt.tracef("%s: suspended→idle (cascade resume; task reattaches)", p.ID)
		rt.mu.Unlock()
		r = rt.resumeHandle(p, ans)
		h = p
	}
}

// resumeHandle runs h's halted turn again with ans.
func (rt *Runtime) resumeHandle(h *Handle, ans core.Answer) TaskResult {
	rt.mu.Lock()
	if h.state == StateSuspended {
		h.state = StateIdle
	}
	rt.mu.Unlock()
	rt.emit(Event{Type: "resumed", Handle: h.ID, Path: h.path, State: StateIdle})
	return rt.runSync(h, turnInput{answer: &ans})
}

// repropagateLocked makes every suspended ancestor that waits on h (and
// so on up) present h's new request: h suspended again after a resume.
func (rt *Runtime) repropagateLocked(h *Handle, r TaskResult) {
	for c, a := h, h.parent; a != nil && a != rt.Root && a.state == StateSuspended && a.halt != nil && a.halt.request.ID == c.boundReq; c, a = a, a.parent {
		a.pendingReq = r.Pending
		res := TaskResult{Text: r.Text, Status: TaskStatusPending, Pending: r.Pending, Turns: a.turnsTotal, TotalTokens: a.usageTokens}
		a.lastResult = &res
	}
}

// topResultLocked is the result of h's top-level ancestor (r when h is
// the top-level agent itself).
func (rt *Runtime) topResultLocked(h *Handle, r TaskResult) TaskResult {
	for h.parent != nil && h.parent != rt.Root {
		h = h.parent
	}
	if h.lastResult != nil {
		return *h.lastResult
	}
	return r
}

// findHalted returns the deepest suspended handle with a halted turn that
// waits on request id (any request when id is ""), children first.
func findHalted(h *Handle, id string) *Handle {
	for _, c := range h.children {
		if found := findHalted(c, id); found != nil {
			return found
		}
	}
	if h.state == StateSuspended && h.halt != nil && (id == "" || h.halt.request.ID == id) {
		return h
	}
	return nil
}
