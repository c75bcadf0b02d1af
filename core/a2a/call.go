package a2a

import (
	"context"
	fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx
	"strings"
	"time"

	"github.com/toolnexus/wasm/core/tool"
	"github.com/toolnexus/wasm/internal/jsonx"
)

const (
	// maxTaskID bounds the task id a Request's id carries (see requestID).
	maxTaskID = 256
	// cancelBudget bounds the CancelTask sent for a task nobody waits on.
	cancelBudget = 5 * time.Second
)

// skillCall is one skill's tool: the agent, where its JSON-RPC goes, and
// the skill's id.
type skillCall struct {
	agent     tool.A2AAgent
	conn      conn
	agentName string
	endpoint  string
	skill     string
}

// callState is one call's progress, for its metadata and messages.
type callState struct {
	start  time.Time
	taskID string
	state  string
	polls  int
}

// execute runs the skill: SendMessage with the model's task, then GetTask
// until the task ends or waits for a person. On a re-run after such a
// wait, ToolContext.Answer continues the task (Ok) or cancels it.
func (s *skillCall) execute(args map[string]any, tctx *tool.ToolContext) (res tool.ToolResult, _ error) {
	st := &callState{start: time.Now(), state: StateSubmitted}
	defer func() {
		// Nothing a remote agent sends may take the runtime down.
		if p := recover(); p != nil {
			res = s.fail(st, fmt.Sprintf("A2A call panicked: %v", p))
		}
	}()
	parent, budgetMs := context.Background(), s.agent.TimeoutMs
	var answer *tool.Answer
	if tctx != nil {
		if tctx.Ctx != nil {
			parent = tctx.Ctx
		}
		if tctx.Timeout > 0 {
			budgetMs = tctx.Timeout
		}
		answer = tctx.Answer
	}
	if budgetMs <= 0 {
		budgetMs = defaultTimeoutMs
	}
	ctx, cancel := context.WithTimeout(parent, time.Duration(budgetMs)*time.Millisecond)
	defer cancel()

	var msg []byte
	var err error
	if answer == nil {
		text, ok := args["task"].(string)
		if !ok {
			text = jsonx.Text(args["task"])
		}
		msg, err = appendMessage(nil, text, nil, "", s.skill)
	} else {
		if st.taskID, err = taskOfRequest(answer.ID); err != nil {
			return s.fail(st, err.Error()), nil
		}
		if !answer.Ok {
			return s.declined(st, answer.Reason), nil
		}
		msg, err = appendMessage(nil, replyText(answer), replyData(answer), st.taskID, s.skill)
	}
	if err != nil {
		return s.fail(st, fmt.Sprintf("A2A message: %v", err)), nil
	}
	result, err := s.conn.call(ctx, s.endpoint, "SendMessage", append(append([]byte(`{"message":`), msg...), '}'))
	if err != nil {
		return s.stopped(parent, ctx, st, budgetMs, err), nil
	}
	t := readSendResult(result)
	if t.id != "" {
		st.taskID = t.id
	}
	if t.state != StateUnknown {
		st.state = t.state
	}
	for !Terminal(st.state) && !Interrupted(st.state) {
		if st.taskID == "" {
			return s.fail(st, fmt.Sprintf("the A2A agent %s started no task (state %s)", s.agentName, st.state)), nil
		}
		if err := sleep(ctx, time.Duration(s.agent.PollEveryMs)*time.Millisecond); err != nil {
			return s.stopped(parent, ctx, st, budgetMs, err), nil
		}
		params := append(append([]byte(`{"id":`), jsonx.AppendString(nil, st.taskID)...), '}')
		result, err := s.conn.call(ctx, s.endpoint, "GetTask", params)
		if err != nil {
			return s.stopped(parent, ctx, st, budgetMs, err), nil
		}
		st.polls++
		t = readTask(result)
		if t.state != StateUnknown {
			st.state = t.state
		}
	}
	switch {
	case st.state == StateCompleted:
		return tool.ToolResult{Output: t.output, Metadata: s.meta(st)}, nil
	case Interrupted(st.state) && answer != nil:
		// One question per call: a core call suspends once. The task is
		// not left waiting on an answer nobody will give.
		why := s.cancel(st)
		return s.fail(st, fmt.Sprintf("A2A task %s of %s asked again after the answer (%s): %s; this call answers one request per task, so the task%s", st.taskID, s.agentName, st.state, t.status, why)), nil
	case Interrupted(st.state):
		return s.suspend(st, t), nil
	}
	out := fmt.Sprintf("A2A task %s %s", st.taskID, st.state)
	if t.status != "" {
		out += ": " + t.status
	}
	return s.fail(st, out), nil
}

// suspend is the Request that shows the agent's question to a person.
func (s *skillCall) suspend(st *callState, t task) tool.ToolResult {
	if len(st.taskID) > maxTaskID {
		return s.fail(st, fmt.Sprintf("the A2A agent %s waits on a task whose id is longer than %d bytes", s.agentName, maxTaskID))
	}
	req := tool.Request{ID: requestID(st.taskID), Kind: tool.KindInput,
		Data: map[string]any{"source": string(tool.SourceA2A), "agent": s.agentName, "skill": s.skill, "taskId": st.taskID, "state": st.state}}
	asks := t.status
	if st.state == StateAuthRequired {
		req.Kind, req.URL = tool.KindAuthorization, t.url
		if asks == "" {
			asks = "it needs you to sign in"
		}
	} else {
		if asks == "" {
			asks = "it needs your input to go on"
		}
		req.Data["schema"] = map[string]any{"type": "object", "properties": map[string]any{
			"reply": map[string]any{"type": "string", "title": "Reply", "description": "Sent to the agent; leave it empty to just approve."},
		}}
	}
	req.Prompt = fmt.Sprintf("The remote agent %q asks: %s", s.agentName, asks)
	res := tool.Pending(req)
	for k, v := range s.meta(st) {
		res.Metadata[k] = v
	}
	return res
}

// replyText is what an Ok answer says to the agent: the person's reply
// (a form's "reply", AnswerOutput's output, a question form's answers),
// else that they approved.
func replyText(a *tool.Answer) string {
	if r, ok := a.Data["reply"].(string); ok && strings.TrimSpace(r) != "" {
		return r
	}
	for _, key := range []string{tool.OutputKey, "answers"} {
		if v, ok := a.Data[key]; ok && v != nil {
			if s, ok := v.(string); ok {
				return s
			}
			return jsonx.Text(v)
		}
	}
	return "approved"
}

// replyData is the same answer for an agent that reads data: what the
// person sent, with "approved": true.
func replyData(a *tool.Answer) map[string]any {
	out := map[string]any{"approved": true}
	for k, v := range a.Data {
		if k != "approved" {
			out[k] = v
		}
	}
	return out
}

// declined cancels the task the person declined to answer.
func (s *skillCall) declined(st *callState, reason string) tool.ToolResult {
	if reason == "" {
		reason = "declined"
	}
	st.state = StateInputRequired
	why := s.cancel(st)
	return s.fail(st, fmt.Sprintf("declined: %s — so the A2A task %s of %s%s", reason, st.taskID, s.agentName, why))
}

// stopped is the result of a call cut short: the run was cancelled, the
// budget ran out, or a request failed. A task it leaves running is
// cancelled, so no agent works on for nobody.
func (s *skillCall) stopped(parent, ctx context.Context, st *callState, budgetMs int, err error) tool.ToolResult {
	switch {
	case parent.Err() != nil:
		s.cancel(st)
		st.state = StateCanceled
		return s.fail(st, fmt.Sprintf("A2A task %s canceled", st.taskID))
	case ctx.Err() != nil:
		was := st.state
		s.cancel(st)
		return s.fail(st, fmt.Sprintf("A2A task %s timed out after %dms (state=%s)", st.taskID, budgetMs, was))
	}
	return s.fail(st, err.Error())
}

// cancel sends CancelTask for a task that has not ended, on its own short
// budget (the call's may be spent), and says how that went: " was
// cancelled" or " could not be cancelled: …".
func (s *skillCall) cancel(st *callState) string {
	if st.taskID == "" || Terminal(st.state) {
		return " had ended"
	}
	// A fresh context: the call's own may be cancelled or spent already.
	ctx, cancel := context.WithTimeout(context.Background(), cancelBudget)
	defer cancel()
	params := append(append([]byte(`{"id":`), jsonx.AppendString(nil, st.taskID)...), '}')
	result, err := s.conn.call(ctx, s.endpoint, "CancelTask", params)
	if err != nil {
		return " could not be cancelled: " + err.Error()
	}
	if t := readTask(result); t.state != StateUnknown {
		st.state = t.state
	} else {
		st.state = StateCanceled
	}
	return " was cancelled"
}

func (s *skillCall) fail(st *callState, output string) tool.ToolResult {
	return tool.ToolResult{Output: output, IsError: true, Metadata: s.meta(st)}
}

// meta is a call's metadata, as the Go port's: the agent, its task, the
// task's last state, the GetTask polls made and the call's milliseconds.
func (s *skillCall) meta(st *callState) map[string]any {
	return map[string]any{"agent": s.agentName, "taskId": st.taskID, "state": st.state, "polls": st.polls,
		"ms": int(time.Since(st.start).Milliseconds())}
}

// requestID is the id of the Request a task's question suspends with. It
// carries the task's id (in hex), because the answer may come to another
// process (a Worker's resume, a restored tab) that knows only the Answer,
// whose id echoes this one.
func requestID(taskID string) string {
	const digits = "0123456789abcdef"
	b := append([]byte(tool.NewID("a2a_")), '.')
	for i := 0; i < len(taskID); i++ {
		b = append(b, digits[taskID[i]>>4], digits[taskID[i]&15])
	}
	return string(b)
}

// taskOfRequest reads the task id back out of requestID's id.
func taskOfRequest(id string) (string, error) {
	i := strings.LastIndexByte(id, '.')
	if !strings.HasPrefix(id, "a2a_") || i < 0 {
		return "", fmt.Errorf("the answer's id %q is not one of an A2A task's requests", id)
	}
	h := id[i+1:]
	if len(h) == 0 || len(h)%2 != 0 || len(h) > 2*maxTaskID {
		return "", fmt.Errorf("the answer's id %q names no A2A task", id)
	}
	b := make([]byte, len(h)/2)
	for j := range b {
		hi, lo := unhex(h[2*j]), unhex(h[2*j+1])
		if hi < 0 || lo < 0 {
			return "", fmt.Errorf("the answer's id %q names no A2A task", id)
		}
		b[j] = byte(hi<<4 | lo)
	}
	return string(b), nil
}

// unhex is the value of a lower-case hex digit, or -1. (encoding/hex
// would link fmt into the wasm builds, which keep it out.)
func unhex(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	}
	return -1
}

// sleep waits d, or until ctx ends (its error then).
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
