//go:build js && wasm

package jsbridge

import (
	"context"
	"errors"
	fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx
	"sync"
	"syscall/js"

	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/core/approval"
	"github.com/toolnexus/wasm/core/tool"
)

// conversation keeps a transcript in Go between runs, so a follow-up prompt
// crosses the boundary alone instead of the whole history each way. Its
// results leave the messages out; messages() hands them over when asked.
// One run at a time: a second one while the first is in flight is refused.
type conversation struct {
	c        *core.Client
	id       string // its grants live under it (approval.WithConversation)
	mu       sync.Mutex
	busy     bool
	messages []any
	pending  *core.Request // set while the last run is halted on a request
}

// conversationHandle is client.conversation(historyJSON?, id?) (id: the
// conversation's, where its "allow for this conversation" grants live; a
// new one when not given, as h.id):
//
//	conv.run(prompt, tk, signal?)                       Promise<string>  RunResult JSON without messages
//	conv.stream(prompt, tk, signal?, onEvent)           Promise<string>  likewise, after the events
//	conv.runWithAnswer(tk, answerJSON, signal?)         Promise<string>  resumes the halted run
//	conv.streamWithAnswer(tk, answerJSON, signal?, onEvent) Promise<string>
//	conv.messages()                                     Promise<string>  the transcript, JSON
//	conv.close()                                        Promise<void>
func conversationHandle(c *core.Client, historyJSON, id js.Value) (js.Value, error) {
	history, err := messagesFromJSON(historyJSON, "history")
	if err != nil {
		return js.Value{}, fmt.Errorf("conversation: %w", err)
	}
	cv := &conversation{c: c, messages: history, id: jsString(id)}
	if cv.id == "" {
		cv.id = tool.NewID("conv_")
	}
	h := jsObject.New()
	h.Set("id", cv.id)
	var fns []js.Func
	set := func(name string, fn func([]js.Value) (any, error)) {
		f := asyncMethod(fn)
		fns = append(fns, f)
		h.Set(name, f)
	}
	start := func(args []js.Value) (string, *core.Toolkit, error) {
		prompt := argAt(args, 0)
		if prompt.Type() != js.TypeString {
			return "", nil, errors.New("prompt must be a string")
		}
		tk, err := toolkitOf(argAt(args, 1))
		return prompt.String(), tk, err
	}
	set("run", func(args []js.Value) (any, error) {
		prompt, tk, err := start(args)
		if err != nil {
			return nil, fmt.Errorf("run: %w", err)
		}
		return cv.do(argAt(args, 2), func(ctx context.Context, history []any) (core.RunResult, error) {
			return c.RunWithHistory(ctx, prompt, tk, history)
		})
	})
	set("stream", func(args []js.Value) (any, error) {
		prompt, tk, err := start(args)
		if err != nil {
			return nil, fmt.Errorf("stream: %w", err)
		}
		onEvent := argAt(args, 3)
		if !isFunc(onEvent) {
			return nil, errors.New("stream: onEvent must be a function")
		}
		return cv.do(argAt(args, 2), func(ctx context.Context, history []any) (core.RunResult, error) {
			events, err := c.StreamWithHistory(ctx, prompt, tk, history)
			if err != nil {
				return core.RunResult{}, noResult{err}
			}
			return drainEvents(ctx, events, onEvent)
		})
	})
	resume := func(name string, args []js.Value, stream bool) (any, error) {
		tk, err := toolkitOf(argAt(args, 0))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		var answer core.Answer
		if err := answer.UnmarshalJSON([]byte(jsString(argAt(args, 1)))); err != nil {
			return nil, fmt.Errorf("%s: answer is not an Answer: %w", name, err)
		}
		onEvent := argAt(args, 3)
		if stream && !isFunc(onEvent) {
			return nil, fmt.Errorf("%s: onEvent must be a function", name)
		}
		return cv.do(argAt(args, 2), func(ctx context.Context, history []any) (core.RunResult, error) {
			cv.mu.Lock()
			pending := cv.pending
			cv.mu.Unlock()
			if pending == nil {
				return core.RunResult{}, noResult{errors.New(name + ": the conversation has no pending request")}
			}
			if !stream {
				return c.RunWithAnswer(ctx, tk, history, *pending, answer)
			}
			events, err := c.StreamWithAnswer(ctx, tk, history, *pending, answer)
			if err != nil {
				return core.RunResult{}, noResult{err}
			}
			return drainEvents(ctx, events, onEvent)
		})
	}
	set("runWithAnswer", func(args []js.Value) (any, error) { return resume("runWithAnswer", args, false) })
	set("streamWithAnswer", func(args []js.Value) (any, error) { return resume("streamWithAnswer", args, true) })
	set("messages", func([]js.Value) (any, error) {
		cv.mu.Lock()
		msgs := cv.messages
		cv.mu.Unlock()
		b, err := appendMessages(nil, msgs)
		return string(b), err
	})
	set("close", func([]js.Value) (any, error) {
		for _, name := range []string{"run", "stream", "runWithAnswer", "streamWithAnswer", "messages", "close"} {
			h.Delete(name)
		}
		go func() {
			for _, f := range fns {
				f.Release()
			}
		}()
		return nil, nil
	})
	return h, nil
}

// do runs one turn of the conversation on its transcript and keeps the
// new transcript when the run ends (done, incomplete or halted). A failed
// run leaves the transcript as it was, unless it halted durably on a
// request (a cancelled wait): then runWithAnswer can resume it.
func (cv *conversation) do(signal js.Value, run func(context.Context, []any) (core.RunResult, error)) (any, error) {
	cv.mu.Lock()
	if cv.busy {
		cv.mu.Unlock()
		return nil, errors.New("conversation: a run is already in progress")
	}
	cv.busy = true
	history := cv.messages
	cv.mu.Unlock()
	ctx, stop := contextFor(signal)
	defer stop()
	res, err := run(approval.WithConversation(ctx, cv.id), history)
	cv.mu.Lock()
	cv.busy = false
	halted := res.Status == core.StatusPending && res.Pending != nil
	if err == nil || halted {
		cv.messages = res.Messages
		cv.pending = nil
		if halted {
			p := *res.Pending
			cv.pending = &p
		}
	}
	cv.mu.Unlock()
	return encodeResult(res, err, false)
}
