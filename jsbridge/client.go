//go:build js && wasm

package jsbridge

import (
	"context"
	"encoding/json"
	"errors"
	fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx
	"syscall/js"

	"github.com/tidwall/gjson"
	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/internal/jsonx"
)

// createClient builds a client handle from JS options. With options.generate
// (an async function) the model runs in the page: core.CreateGenerateClient.
func createClient(args []js.Value) (any, error) {
	o := argAt(args, 0)
	if o.Type() != js.TypeObject {
		return nil, errors.New("createClient: options must be an object")
	}
	opts := core.ClientOptions{
		BaseURL:       str(o, "baseURL"),
		Style:         core.Style(str(o, "style")),
		Model:         str(o, "model"),
		APIKey:        str(o, "apiKey"),
		SystemPrompt:  str(o, "systemPrompt"),
		MaxTurns:      intProp(o, "maxTurns"),
		MaxTokens:     intProp(o, "maxTokens"),
		ToolTimeoutMs: intProp(o, "toolTimeoutMs"),
		TimeoutMs:     intProp(o, "timeoutMs"),
		Retries:       intProp(o, "retries"),
		RetryBaseMs:   intProp(o, "retryBaseMs"),
	}
	if h := o.Get("headers"); h.Type() == js.TypeObject {
		if err := fromJS(h, &opts.Headers); err != nil {
			return nil, fmt.Errorf("createClient: headers must map names to strings: %w", err)
		}
	}
	if p := o.Get("requestParams"); p.Type() == js.TypeObject {
		if err := fromJS(p, &opts.RequestParams); err != nil {
			return nil, fmt.Errorf("createClient: requestParams: %w", err)
		}
	}
	if w := o.Get("waitFor"); isFunc(w) {
		opts.WaitForContext = WaitFor(w)
	}
	var c *core.Client
	if gen := o.Get("generate"); isFunc(gen) {
		c = core.CreateGenerateClient(generateFunc(gen), opts)
	} else {
		if opts.BaseURL == "" {
			return nil, errors.New("createClient: baseURL is required (or pass generate)")
		}
		t, err := NewFetchTransport(o.Get("fetch"))
		if err != nil {
			return nil, fmt.Errorf("createClient: %w", err)
		}
		opts.Transport = t
		c = core.CreateClient(opts)
	}
	return clientHandle(c), nil
}

func clientHandle(c *core.Client) js.Value {
	h := jsObject.New()
	var fns []js.Func
	set := func(name string, f js.Func) {
		fns = append(fns, f)
		h.Set(name, f)
	}
	// run(prompt, tk, historyJSON?, signal?, conversation?)
	set("run", asyncMethod(func(args []js.Value) (any, error) {
		prompt, tk, history, err := runArgs(args)
		if err != nil {
			return nil, fmt.Errorf("run: %w", err)
		}
		ctx, stop := contextFor(argAt(args, 3))
		defer stop()
		ctx = withConversation(ctx, argAt(args, 4))
		return resultJSON(c.RunWithHistory(ctx, prompt, tk, history))
	}))
	// stream(prompt, tk, historyJSON?, signal?, onEvent, conversation?)
	// resolves to the RunResult JSON after calling onEvent(eventJSON) for
	// each event.
	set("stream", asyncMethod(func(args []js.Value) (any, error) {
		prompt, tk, history, err := runArgs(args)
		if err != nil {
			return nil, fmt.Errorf("stream: %w", err)
		}
		onEvent := argAt(args, 4)
		if !isFunc(onEvent) {
			return nil, errors.New("stream: onEvent must be a function")
		}
		ctx, stop := contextFor(argAt(args, 3))
		defer stop()
		ctx = withConversation(ctx, argAt(args, 5))
		events, err := c.StreamWithHistory(ctx, prompt, tk, history)
		if err != nil {
			return nil, err
		}
		return drain(ctx, events, onEvent)
	}))
	// streamWithAnswer(tk, messagesJSON, pendingJSON, answerJSON, signal?, onEvent, conversation?)
	set("streamWithAnswer", asyncMethod(func(args []js.Value) (any, error) {
		tk, history, pending, answer, err := resumeArgs(args)
		if err != nil {
			return nil, fmt.Errorf("streamWithAnswer: %w", err)
		}
		onEvent := argAt(args, 5)
		if !isFunc(onEvent) {
			return nil, errors.New("streamWithAnswer: onEvent must be a function")
		}
		ctx, stop := contextFor(argAt(args, 4))
		defer stop()
		ctx = withConversation(ctx, argAt(args, 6))
		events, err := c.StreamWithAnswer(ctx, tk, history, pending, answer)
		if err != nil {
			return nil, err
		}
		return drain(ctx, events, onEvent)
	}))
	// runWithAnswer(tk, messagesJSON, pendingJSON, answerJSON, signal?, conversation?)
	set("runWithAnswer", asyncMethod(func(args []js.Value) (any, error) {
		tk, history, pending, answer, err := resumeArgs(args)
		if err != nil {
			return nil, fmt.Errorf("runWithAnswer: %w", err)
		}
		ctx, stop := contextFor(argAt(args, 4))
		defer stop()
		ctx = withConversation(ctx, argAt(args, 5))
		return resultJSON(c.RunWithAnswer(ctx, tk, history, pending, answer))
	}))
	// translate(requestJSON, signal?) resolves to the TranslateResult JSON.
	set("translate", asyncMethod(func(args []js.Value) (any, error) {
		req, err := translateRequest(jsString(argAt(args, 0)))
		if err != nil {
			return nil, fmt.Errorf("translate: request: %w", err)
		}
		ctx, stop := contextFor(argAt(args, 1))
		defer stop()
		res, err := c.Translate(ctx, req)
		if err != nil {
			return nil, err
		}
		b, err := jsonx.Marshal(res)
		return string(b), err
	}))
	// conversation(historyJSON?, id?) keeps a transcript in Go (conversation.go).
	set("conversation", asyncMethod(func(args []js.Value) (any, error) {
		return conversationHandle(c, argAt(args, 0), argAt(args, 1))
	}))
	journalMethods(set, c) // client_journal.go: runJournal, continueJournal
	set("metrics", asyncMethod(func([]js.Value) (any, error) { return c.Metrics(), nil }))
	// close releases the handle's functions; calling any of them afterwards
	// throws in JS instead of reaching Go.
	set("close", asyncMethod(func([]js.Value) (any, error) {
		for _, name := range []string{"run", "stream", "runWithAnswer", "streamWithAnswer", "translate", "conversation", "runJournal", "continueJournal", "metrics", "close"} {
			h.Delete(name)
		}
		go func() {
			for _, f := range fns {
				f.Release()
			}
		}()
		return nil, nil
	}))
	return h
}

// drain hands every event but the last to onEvent(eventJSON) and returns
// the final result as the Promise's value (or its rejection).
func drain(ctx context.Context, events <-chan core.StreamEvent, onEvent js.Value) (any, error) {
	res, err := drainEvents(ctx, events, onEvent)
	return encodeResult(res, err, true)
}

// drainEvents hands every event but the last to onEvent(eventJSON) and
// returns the final result; without one the error is a noResult.
func drainEvents(ctx context.Context, events <-chan core.StreamEvent, onEvent js.Value) (core.RunResult, error) {
	var last core.StreamEvent
	for e := range events {
		last = e
		if e.Type == core.EventDone || e.Type == core.EventError {
			continue // the final result settles the Promise instead
		}
		b, _ := jsonx.Marshal(e)
		_, _ = call(onEvent, string(b))
	}
	if last.Result == nil {
		if ctx.Err() != nil {
			return core.RunResult{}, noResult{fmt.Errorf("stream cancelled: %w", ctx.Err())}
		}
		return core.RunResult{}, noResult{errors.New("stream ended without a result")}
	}
	return *last.Result, last.Err
}

// noResult is a failure before any result existed: it rejects without a
// partial result attached.
type noResult struct{ error }

func (e noResult) Unwrap() error { return e.error }

// checkGenerated refuses a generate reply of the wrong shape with a clear
// error, rather than reading what it can of it.
func checkGenerated(out gjson.Result) error {
	if t := out.Get("text"); t.Exists() && t.Type != gjson.String && t.Type != gjson.Null {
		return errors.New("text that is not a string")
	}
	calls := out.Get("toolCalls")
	if calls.Exists() && calls.Type != gjson.Null && !calls.IsArray() {
		return errors.New("toolCalls that is not an array")
	}
	for i, tc := range calls.Array() {
		if tc.Get("name").Type != gjson.String || tc.Get("name").String() == "" {
			return fmt.Errorf("toolCalls[%d] without a name", i)
		}
	}
	return nil
}

// translateRequest reads {model?, messages, tools?}, keeping each message
// and tool as the raw JSON the caller sent.
func translateRequest(s string) (core.TranslateRequest, error) {
	if err := jsonx.CheckDepth([]byte(s), jsonx.MaxDepth); err != nil {
		return core.TranslateRequest{}, err
	}
	if !gjson.Valid(s) || !gjson.Parse(s).IsObject() {
		return core.TranslateRequest{}, errors.New("not a JSON object")
	}
	doc := gjson.Parse(s)
	req := core.TranslateRequest{Model: doc.Get("model").String()}
	for _, m := range doc.Get("messages").Array() {
		req.Messages = append(req.Messages, json.RawMessage(m.Raw))
	}
	for _, t := range doc.Get("tools").Array() {
		req.Tools = append(req.Tools, json.RawMessage(t.Raw))
	}
	return req, nil
}

// resumeArgs reads (toolkit, messagesJSON, pendingJSON, answerJSON).
func resumeArgs(args []js.Value) (*core.Toolkit, []any, core.Request, core.Answer, error) {
	var pending core.Request
	var answer core.Answer
	tk, err := toolkitOf(argAt(args, 0))
	if err != nil {
		return nil, nil, pending, answer, err
	}
	history, err := messagesFromJSON(argAt(args, 1), "messages")
	if err != nil {
		return nil, nil, pending, answer, err
	}
	if err := pending.UnmarshalJSON([]byte(jsString(argAt(args, 2)))); err != nil {
		return nil, nil, pending, answer, fmt.Errorf("pending is not a Request: %w", err)
	}
	if err := answer.UnmarshalJSON([]byte(jsString(argAt(args, 3)))); err != nil {
		return nil, nil, pending, answer, fmt.Errorf("answer is not an Answer: %w", err)
	}
	return tk, history, pending, answer, nil
}

// runArgs reads (prompt, toolkit, historyJSON).
func runArgs(args []js.Value) (string, *core.Toolkit, []any, error) {
	prompt := argAt(args, 0)
	if prompt.Type() != js.TypeString {
		return "", nil, nil, errors.New("prompt must be a string")
	}
	tk, err := toolkitOf(argAt(args, 1))
	if err != nil {
		return "", nil, nil, err
	}
	history, err := messagesFromJSON(argAt(args, 2), "history")
	if err != nil {
		return "", nil, nil, err
	}
	return prompt.String(), tk, history, nil
}

// contextFor returns a context cancelled when the AbortSignal aborts (or a
// plain context when there is no signal), and a stop func that removes the
// listener.
func contextFor(signal js.Value) (context.Context, func()) {
	if signal.Type() != js.TypeObject || !isFunc(signal.Get("addEventListener")) {
		// Nothing can cancel the run: no AbortController per request either.
		return context.Background(), func() {}
	}
	ctx, cancel := context.WithCancel(context.Background())
	if signal.Get("aborted").Truthy() {
		cancel()
		return ctx, cancel
	}
	onAbort := js.FuncOf(func(js.Value, []js.Value) any {
		cancel() // does not block
		return nil
	})
	signal.Call("addEventListener", "abort", onAbort)
	return ctx, func() {
		cancel()
		signal.Call("removeEventListener", "abort", onAbort)
		onAbort.Release()
	}
}

// generateFunc adapts an async JS generate(request) => {text, toolCalls,
// usage} to core.GenerateFunc.
func generateFunc(fn js.Value) core.GenerateFunc {
	return func(ctx context.Context, req core.GenerateRequest) (core.GenerateResponse, error) {
		p, err := call(fn, toJS(req))
		if err != nil {
			return core.GenerateResponse{}, fmt.Errorf("generate threw: %w", err)
		}
		v, err := await(ctx, p)
		if err != nil {
			return core.GenerateResponse{}, fmt.Errorf("generate failed: %w", err)
		}
		text, err := jsonOf(v)
		if err != nil || jsonx.Check([]byte(text)) != nil || !gjson.Parse(text).IsObject() {
			return core.GenerateResponse{}, errors.New("generate must resolve to an object {text, toolCalls, usage}")
		}
		out := gjson.Parse(text)
		if err := checkGenerated(out); err != nil {
			return core.GenerateResponse{}, fmt.Errorf("generate returned %w", err)
		}
		res := core.GenerateResponse{Text: out.Get("text").String(), Usage: core.Usage{
			PromptTokens:     int(out.Get("usage.promptTokens").Int()),
			CompletionTokens: int(out.Get("usage.completionTokens").Int()),
			TotalTokens:      int(out.Get("usage.totalTokens").Int()),
		}}
		for _, tc := range out.Get("toolCalls").Array() {
			args := tc.Get("arguments")
			raw := args.Raw // arguments given as an object
			if args.Type == gjson.String {
				raw = args.String()
			}
			res.ToolCalls = append(res.ToolCalls, core.ToolRequest{ID: tc.Get("id").String(), Name: tc.Get("name").String(), Arguments: raw})
		}
		return res, nil
	}
}
