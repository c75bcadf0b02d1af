package a2aserve

import (
	"context"
	"encoding/json" // for the RawMessage type only: nothing of the package runs
	"errors"
	"fmt"

	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/core/a2a"
	"github.com/toolnexus/wasm/core/journal"
	"github.com/toolnexus/wasm/worker"
)

// A conversation (A2A's contextId) is a chain of tasks: each new message
// with the contextId starts a run whose history is the transcript of the
// conversation's latest task, as its journal records it. The first task
// names the conversation (ctx_ and its run's hex) and keeps, as a note of
// its run, the id of the latest one. So a conversation is kept as long as
// its first task's run is (APPROVAL_TTL_SECONDS × 2 + 24 h), and a
// message continues it only when its latest task has ended: one waiting
// for input is answered (taskId), not talked past.

// latestNote is the note of a conversation's first run that names its
// latest task.
const latestNote = "a2a:latest"

// conversation is what a message that continues one starts from.
type conversation struct {
	root    string // the run that keeps latestNote
	skill   string
	history []json.RawMessage
}

// continueConversation reads conversation contextID for a new task of
// skill ("" for the conversation's own): the transcript of its latest
// task. A contextID this agent did not give, one no longer kept, a
// conversation whose latest task has not ended, or one of an agent team
// (whose agents keep their own transcripts) is the JSON-RPC error it
// returns; err is a failure of the store or of the journal.
func continueConversation(h *worker.Handler, ctx context.Context, cfg worker.Config, store worker.RunStore, contextID, skill string) (conversation, *a2a.RPCError, error) {
	refuse := func(code int, message string) (conversation, *a2a.RPCError, error) {
		return conversation{}, &a2a.RPCError{Code: code, Message: message}, nil
	}
	unknown := "Invalid params: no conversation " + worker.QuoteClip(contextID) + " here (a contextId comes from one of this agent's tasks, and lasts as long as the conversation's first task is kept); leave it out to start a conversation"
	if !isID(contextID, "ctx_") {
		return refuse(a2a.CodeInvalidParams, unknown)
	}
	root := "run_" + contextID[len("ctx_"):]
	rt, err := loadTask(ctx, store, root)
	if err != nil {
		return conversation{}, nil, err
	}
	if rt == nil || rt.contextID != contextID {
		return refuse(a2a.CodeInvalidParams, unknown)
	}
	latest := rt
	if note, err := store.Note(ctx, root, latestNote); err == nil && isID(string(note), "run_") {
		if lt, err := loadTask(ctx, store, string(note)); err == nil && lt != nil {
			latest = lt
		}
	}
	if latest.agent != "" || (skill != "" && skill != latest.skill) {
		return refuse(a2a.CodeUnsupportedOperation, "Unsupported operation: a conversation goes on with the Worker's agent (skill \""+DefaultSkill+"\") only: an agent team keeps its own transcripts; send without contextId")
	}
	switch latest.status() {
	case "running":
		return refuse(a2a.CodeUnsupportedOperation, "Unsupported operation: the conversation's task "+latest.id+" is still working; wait for it (GetTask) before the next message")
	case "pending":
		return refuse(a2a.CodeUnsupportedOperation, "Unsupported operation: the conversation's task "+latest.id+" waits for input: answer it (a message with its taskId) or cancel it first")
	}
	history, err := transcript(h, ctx, cfg, store, latest.id)
	if err != nil {
		return conversation{}, nil, fmt.Errorf("the transcript of task %s: %w", latest.id, err)
	}
	return conversation{root: root, skill: latest.skill, history: history}, nil, nil
}

// transcript is the whole conversation of ended run id — its history, its
// prompt, the model's turns and the tool results — as core rebuilds it from
// the run's journal: Continue on an ended journal runs nothing and returns
// the run as recorded. It reads a copy, so the run's own journal is left
// as it is.
func transcript(h *worker.Handler, ctx context.Context, cfg worker.Config, store worker.RunStore, id string) ([]json.RawMessage, error) {
	texts, err := store.Load(ctx, id)
	if err != nil {
		return nil, err
	}
	entries, err := journal.DecodeAll(texts)
	if err != nil {
		return nil, err
	}
	if len(entries) == 0 || entries[len(entries)-1].Kind != journal.KindEnd {
		return nil, errors.New("the run has not ended")
	}
	copied := journal.NewMemory()
	for _, e := range entries {
		if err := copied.Record(ctx, e); err != nil {
			return nil, err
		}
	}
	tk, err := core.CreateToolkit(ctx, core.Options{Builtins: false})
	if err != nil {
		return nil, err
	}
	defer tk.Close()
	res, err := h.AgentClient(cfg, tk, 0).Continue(ctx, tk, copied)
	if err != nil && (errors.Is(err, core.ErrJournal) || errors.Is(err, core.ErrNoRun)) {
		return nil, err
	}
	// A failed run's end is its error; what it recorded stands.
	out := make([]json.RawMessage, 0, len(res.Messages))
	for _, m := range res.Messages {
		raw, ok := m.(json.RawMessage)
		if !ok {
			return nil, errors.New("core's transcript holds a message that is not JSON text")
		}
		out = append(out, raw)
	}
	return out, nil
}
