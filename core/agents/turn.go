package agents

import (
	"context"
	"errors"
	fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx

	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/core/approval"
)

// turnInput is what starts a turn: a prompt (plus the drained inbox), or
// the Answer that resumes the handle's halted turn.
type turnInput struct {
	prompt string
	answer *core.Answer
}

// admission is a turn prepared under rt.mu: its input, and the context the
// runtime cancels to interrupt it.
type admission struct {
	in     turnInput
	input  string
	ctx    context.Context
	cancel context.CancelCauseFunc
}

// admitLocked starts a turn atomically (rt.mu held): the live budget walk,
// the transactional drain, the cancel context, the state flip. A non-nil
// result is a refusal to settle the handle with.
func (rt *Runtime) admitLocked(h *Handle, in turnInput) (admission, *TaskResult) {
	if h.state == StateClosed {
		return admission{}, &TaskResult{Text: "closed", IsError: true, Status: TaskStatusClosed, Turns: h.turnsTotal, TotalTokens: h.usageTokens}
	}
	if limit := rt.budgetRefusalLocked(h); limit != "" {
		rt.tracef("%s: turn refused (INCOMPLETE: budget exhausted (%s))", h.ID, limit)
		h.halt, h.pendingReq = nil, nil
		h.state = StateIdle
		return admission{}, &TaskResult{
			Text: "budget exhausted (" + limit + "); partial work preserved", IsError: true,
			Status: TaskStatusIncomplete, Limit: limit, Turns: h.turnsTotal, TotalTokens: h.usageTokens,
		}
	}
	adm := admission{in: in}
	if in.answer == nil {
		adm.input = in.prompt + rt.drainLocked(h)
		rt.tracef("%s: idle→running (wake)", h.ID)
	}
	adm.ctx, adm.cancel = context.WithCancelCause(context.Background())
	h.cancel = adm.cancel
	h.state = StateRunning
	h.inFlight = true
	return adm, nil
}

// runSync takes a parent slot, admits and runs one turn on the calling
// goroutine (the resume path; it bypasses the wake queue).
func (rt *Runtime) runSync(h *Handle, in turnInput) TaskResult {
	rt.mu.Lock()
	if h.parent != nil {
		h.parent.runningChildren++
	}
	adm, refused := rt.admitLocked(h, in)
	if refused != nil {
		rt.releaseSlotLocked(h)
		rt.settleLocked(h, *refused)
		rt.mu.Unlock()
		return *refused
	}
	rt.turns.Add(1)
	rt.mu.Unlock()
	defer rt.turns.Done()
	return rt.perform(h, adm)
}

// perform runs an admitted turn, then releases the slot and settles.
func (rt *Runtime) perform(h *Handle, adm admission) TaskResult {
	rt.emit(Event{Type: "running", Handle: h.ID, Path: h.path, State: StateRunning})
	result := rt.execute(adm.ctx, h, adm.in, adm.input)
	adm.cancel(nil)
	rt.mu.Lock()
	h.inFlight = false
	rt.releaseSlotLocked(h)
	rt.settleLocked(h, result)
	st := h.state
	rt.mu.Unlock()
	if result.Status == TaskStatusPending {
		rt.emit(Event{Type: "suspended", Handle: h.ID, Path: h.path, State: st, Request: result.Pending})
	}
	rt.emit(Event{Type: "settled", Handle: h.ID, Path: h.path, State: st, Result: &result})
	return result
}

// releaseSlotLocked returns h's slot in its parent and hands free slots to
// queued sibling wakes, in order (rt.mu held).
func (rt *Runtime) releaseSlotLocked(h *Handle) {
	p := h.parent
	if p == nil {
		return
	}
	p.runningChildren--
	for _, sib := range p.children {
		if p.runningChildren >= p.eff.maxConcurrent {
			return
		}
		if sib.state != StateIdle || len(sib.wakeQueue) == 0 {
			continue
		}
		prompt := sib.wakeQueue[0]
		sib.wakeQueue = sib.wakeQueue[1:]
		rt.tracef("%s: DEQUEUED wake (slot freed)", sib.ID)
		rt.startLocked(sib, turnInput{prompt: prompt})
	}
}

// execute runs core's loop for one turn: a fresh run on the committed
// transcript, or the halted turn continued with an Answer.
func (rt *Runtime) execute(ctx context.Context, h *Handle, in turnInput, input string) (res TaskResult) {
	// A panic in a tool, hook or callback ends this turn with an error
	// result instead of the process (under js/wasm, the whole module).
	defer func() {
		if p := recover(); p != nil {
			res = rt.finish(ctx, h, core.RunResult{}, fmt.Errorf("agents: panic in %s: %v", h.ID, p))
		}
	}()
	rt.mu.Lock()
	def, maxTurns, halted := h.def, h.eff.maxTurns, h.halt
	rt.mu.Unlock()
	if approval.ConversationOf(ctx) == "" {
		// A team is one conversation: a grant given to one of its agents
		// holds for its later calls, and for the other agents'.
		ctx = approval.WithConversation(ctx, rt.conversation)
	}
	tools := append([]core.Tool(nil), def.Tools...)
	if len(def.Team) > 0 {
		tools = append(tools, rt.taskTool(h, def.Team))
	}
	tk, err := core.CreateToolkit(ctx, core.Options{Builtins: false, ExtraTools: tools, Approvals: rt.policyFor(h, def)})
	if err != nil {
		return rt.finish(ctx, h, core.RunResult{}, err)
	}
	defer tk.Close()
	client := rt.client(h, def, maxTurns)
	var r core.RunResult
	if in.answer != nil && halted != nil {
		r, err = rt.drive(ctx, h,
			func() (core.RunResult, error) {
				return client.RunWithAnswer(ctx, tk, halted.messages, halted.request, *in.answer)
			},
			func() (<-chan core.StreamEvent, error) {
				return client.StreamWithAnswer(ctx, tk, halted.messages, halted.request, *in.answer)
			})
	} else {
		history, _ := rt.store.Get(h.ID)
		if def.Compact != nil && len(history) > 0 {
			if history, err = def.Compact(history); err != nil {
				return rt.finish(ctx, h, core.RunResult{}, err)
			}
		}
		r, err = rt.drive(ctx, h,
			func() (core.RunResult, error) { return client.RunWithHistory(ctx, input, tk, history) },
			func() (<-chan core.StreamEvent, error) { return client.StreamWithHistory(ctx, input, tk, history) })
	}
	r, _, err = verifyCompletion(ctx, client, tk, def.Completion, r, err)
	return rt.finish(ctx, h, r, err)
}

// finish applies a run's outcome to h and turns it into a TaskResult. Only
// finished turns commit their transcript; a halted one stays on the handle.
func (rt *Runtime) finish(ctx context.Context, h *Handle, r core.RunResult, err error) TaskResult {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	h.turnsTotal += r.Turns
	res := TaskResult{Text: r.Text, Turns: r.Turns, TotalTokens: r.Usage.TotalTokens}
	idle := func() {
		h.halt, h.pendingReq = nil, nil
		if h.state != StateClosed {
			h.state = StateIdle
		}
	}
	stop := asBudgetStop(err)
	switch {
	case stop != nil:
		idle()
		h.drained = nil
		if len(r.Messages) > 0 {
			_ = rt.store.Save(h.ID, r.Messages)
		}
		res.Text, res.IsError, res.Status, res.Limit = "budget exhausted ("+stop.limit+"); partial work preserved", true, TaskStatusIncomplete, stop.limit
		rt.tracef("%s: running→idle (INCOMPLETE: budget exhausted (%s))", h.ID, stop.limit)
	case err != nil:
		idle()
		cause := context.Cause(ctx)
		if errors.Is(cause, errInterrupted) || errors.Is(cause, errClosed) {
			rt.restoreDrainedLocked(h)
			res.Text, res.IsError, res.Status = "interrupted", true, TaskStatusInterrupted
			rt.tracef("%s: running→idle (interrupted; inbox intact)", h.ID)
		} else {
			h.drained = nil
			res.Text, res.IsError, res.Status = err.Error(), true, TaskStatusError
			rt.tracef("%s: running→idle (error: %s)", h.ID, err.Error())
		}
	case r.Status == core.StatusPending && r.Pending != nil:
		h.state = StateSuspended
		h.halt = &halt{messages: r.Messages, request: *r.Pending}
		req := presentAs(h, *r.Pending)
		h.pendingReq = &req
		res.Status, res.Pending = TaskStatusPending, &req
		rt.tracef("%s: running→suspended DURABLE (pending %q, path preserved)", h.ID, req.Kind)
		if res.Text == "" {
			res.Text = req.Prompt
		}
	case r.Status == core.StatusIncomplete:
		idle()
		h.drained = nil
		_ = rt.store.Save(h.ID, r.Messages)
		res.IsError, res.Status, res.Limit = true, TaskStatusIncomplete, r.Limit
		rt.tracef("%s: running→idle (INCOMPLETE at %s)", h.ID, r.Limit)
		if res.Text == "" {
			res.Text = "stopped at " + r.Limit + " without a final answer"
		}
	default:
		idle()
		h.drained = nil
		_ = rt.store.Save(h.ID, r.Messages)
		res.Status = TaskStatusDone
		rt.tracef("%s: running→idle (done, turns=%d, tokens=%d)", h.ID, r.Turns, r.Usage.TotalTokens)
	}
	return res
}

// RunTurn runs one turn on an idle handle and returns its result, on the
// calling goroutine (it bypasses the parent's wake queue).
func (rt *Runtime) RunTurn(h *Handle, prompt string) TaskResult {
	rt.mu.Lock()
	st, busy := h.state, h.inFlight
	rt.mu.Unlock()
	switch {
	case st == StateClosed:
		return TaskResult{Text: "closed", IsError: true, Status: TaskStatusClosed}
	case st != StateIdle || busy:
		return TaskResult{Text: "agent is " + string(st), IsError: true, Status: TaskStatusError}
	}
	return rt.runSync(h, turnInput{prompt: prompt})
}
