package core

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/toolnexus/wasm/core/wire"
)

// run is the state of one Run / RunWithAnswer call.
type run struct {
	c      *Client
	tk     *Toolkit
	tr     transcript
	result RunResult
	// stream, when set, makes model calls stream and receives every event.
	stream func(StreamEvent)
	// callDeltas passes tool-call deltas (EventToolCallDelta) to stream;
	// only TranslateStream asks for them.
	callDeltas bool
	// tools, when toolsSet, is the encoded tool list a Hooks.BeforeLLM
	// override put in place of the toolkit's (nil: send none).
	tools    []byte
	toolsSet bool
	// reply is the last provider reply, kept for Hooks.AfterLLM and, when
	// keepReply, for TranslateResult.Raw.
	reply     []byte
	keepReply bool
	// mu guards abortErr: a hook error from one of a turn's concurrent
	// tool calls, which ends the run once the turn's calls are done.
	mu       sync.Mutex
	abortErr error
}

func (c *Client) newRun(tk *Toolkit, history []any) (*run, error) {
	if c.err != nil {
		return nil, c.err
	}
	msgs, err := encodeHistory(history)
	if err != nil {
		return nil, err
	}
	r := &run{c: c, tk: tk}
	for _, m := range msgs {
		r.tr.add(m)
	}
	r.result.Model = c.opts.Model
	r.result.ToolCalls = []ToolRecord{} // [] rather than null in JSON
	return r, nil
}

func (r *run) appendMessage(m json.RawMessage) { r.tr.add(m) }

// loop alternates model calls and tool phases. resume, when set, is the tool
// phase of a halted turn to finish before the next model call.
func (r *run) loop(ctx context.Context, resume *toolPhase) (RunResult, error) {
	start := time.Now()
	runCtx := ctx
	if r.c.opts.TimeoutMs > 0 {
		var cancel context.CancelFunc
		runCtx, cancel = context.WithTimeout(ctx, time.Duration(r.c.opts.TimeoutMs)*time.Millisecond)
		defer cancel()
	}
	res, err := r.turns(runCtx, resume)
	if err != nil && runCtx != ctx && ctx.Err() == nil && errors.Is(runCtx.Err(), context.DeadlineExceeded) {
		res, err = timedOut(res, r.c.opts.TimeoutMs, err)
	}
	r.c.emit(MetricEvent{Kind: "run", Model: r.c.opts.Model, Status: res.Status, Duration: time.Since(start), Usage: res.Usage, Err: errText(err),
		Turns: res.Turns, ToolCalls: res.ToolCallCount})
	return res, err
}

func (r *run) turns(ctx context.Context, resume *toolPhase) (res RunResult, err error) {
	// A panic in a hook or in WaitFor must not take the process (or the wasm
	// instance) down: it ends this run with an error and the transcript so far.
	defer func() {
		if p := recover(); p != nil {
			res, err = r.finish(StatusIncomplete, "error"), fmt.Errorf("core: run panicked: %v", p)
		}
	}()
	for {
		if resume == nil {
			if r.result.Turns >= r.c.opts.MaxTurns {
				return r.finish(StatusIncomplete, "maxTurns"), nil
			}
			if err := ctx.Err(); err != nil {
				return r.finish(StatusIncomplete, "error"), fmt.Errorf("core: run stopped: %w", err)
			}
			resp, err := r.callModel(ctx)
			if err != nil {
				return r.finish(StatusIncomplete, "error"), err
			}
			r.appendMessage(r.c.wire.AssistantMessage(resp))
			r.result.Text = resp.Text
			u := resp.Usage
			r.emitEvent(StreamEvent{Type: EventUsage, Usage: &u})
			if len(resp.ToolCalls) == 0 {
				return r.finish(StatusDone, ""), nil
			}
			resume = r.newToolPhase(resp.ToolCalls)
		}
		halt, err := r.runTools(ctx, resume)
		resume = nil
		if halt != nil {
			r.result.Pending = halt
			return r.finish(StatusPending, ""), err
		}
		if err != nil {
			return r.finish(StatusIncomplete, "error"), err
		}
	}
}

func (r *run) finish(status, limit string) RunResult {
	r.result.Status, r.result.Limit = status, limit
	r.result.raw = append([]json.RawMessage(nil), r.tr.msgs...)
	if p := r.c.port; p != nil && !r.c.opts.RawMessages {
		r.result.Messages = p.messages(&r.tr)
	} else {
		r.result.Messages = r.tr.asAny()
	}
	r.result.ToolCallCount = len(r.result.ToolCalls)
	return r.result
}

// callModel performs one provider call, through the hooks.
func (r *run) callModel(ctx context.Context) (LLMResponse, error) {
	o := &r.c.opts
	turn := r.result.Turns + 1
	var model string
	if p := r.c.port; p != nil {
		var err error
		if model, err = p.beforeLLM(r, ctx, turn-1); err != nil {
			return LLMResponse{}, err
		}
	}
	if model != "" {
		turnOpts := *o
		turnOpts.Model = model
		o = &turnOpts
	} else {
		model = o.Model
	}
	tools := r.wireTools()
	body := r.c.wire.Body(wireParams(o), r.tr.joined, tools, r.stream != nil)
	if _, openAI := r.c.wire.(wire.OpenAI); openAI && len(tools) > 0 {
		if _, set := o.RequestParams["tool_choice"]; !set {
			// As the Go port sends it whenever there are tools.
			body = withParams(body, []byte(`,"tool_choice":"auto"`))
		}
	}
	body = withParams(body, r.c.params)
	r.reply = nil
	var resp LLMResponse
	var short *LLMResponse
	if h := o.RawHooks.BeforeLLM; h != nil {
		var err error
		if short, err = h(ctx, turn, &body); err != nil {
			return LLMResponse{}, fmt.Errorf("core: BeforeLLM hook: %w", err)
		}
	}
	if short != nil {
		resp = *short
		wire.DropMessage(&resp)
	} else {
		var err error
		if resp, err = r.request(ctx, body); err != nil {
			return LLMResponse{}, err
		}
	}
	if h := o.RawHooks.AfterLLM; h != nil {
		if err := h(ctx, turn, &resp); err != nil {
			return LLMResponse{}, fmt.Errorf("core: AfterLLM hook: %w", err)
		}
		wire.DropMessage(&resp) // the hook may have changed it: rebuild
	}
	if p := r.c.port; p != nil {
		if err := p.afterLLM(r, ctx, turn-1, model, r.reply, short == nil && r.stream != nil); err != nil {
			return LLMResponse{}, err
		}
	}
	r.result.Turns = turn
	wire.AddUsage(&r.result.Usage, resp.Usage)
	if resp.Model != "" {
		r.result.Model = resp.Model
	}
	return resp, nil
}

// request sends one body (with retries) and reads the reply, streamed or whole.
func (r *run) request(ctx context.Context, body []byte) (LLMResponse, error) {
	o := &r.c.opts
	if p := r.c.port; p != nil && o.BodyTransform != nil {
		var err error
		if body, err = p.transformBody(body, o.BodyTransform); err != nil {
			return LLMResponse{}, fmt.Errorf("core: BodyTransform: %w", err)
		}
	}
	if o.RawBodyTransform != nil {
		var err error
		if body, err = o.RawBodyTransform(body); err != nil {
			return LLMResponse{}, fmt.Errorf("core: RawBodyTransform: %w", err)
		}
	}
	start := time.Now()
	resp, err := r.send(ctx, body)
	if err != nil {
		return LLMResponse{}, err
	}
	defer resp.Body.Close()
	var parsed LLMResponse
	switch {
	case r.stream != nil && strings.HasPrefix(resp.Header["content-type"], "text/event-stream"):
		parsed, err = r.readStream(resp.Body)
	case r.stream != nil:
		// Asked to stream, answered whole (some OpenAI-compatible servers
		// ignore "stream"): read it as one reply and stream it as one delta.
		if parsed, err = r.readWhole(resp.Body); err == nil && parsed.Text != "" {
			r.emitEvent(StreamEvent{Type: EventText, Delta: parsed.Text})
		}
	default:
		parsed, err = r.readWhole(resp.Body)
	}
	status := strconv.Itoa(resp.Status)
	if err != nil {
		status = "error"
		if ctx.Err() != nil {
			status = "cancelled"
		}
	}
	r.c.emit(MetricEvent{Kind: "llm", Model: o.Model, Status: status, Duration: time.Since(start), Usage: parsed.Usage, Err: errText(err)})
	return parsed, err
}

func (r *run) readWhole(body io.Reader) (LLMResponse, error) {
	limit := r.c.opts.MaxResponseBytes
	data, err := io.ReadAll(io.LimitReader(body, int64(limit)+1))
	if err != nil {
		return LLMResponse{}, fmt.Errorf("core: read model reply: %s", r.redact(err.Error()))
	}
	if len(data) > limit {
		return LLMResponse{}, fmt.Errorf("core: model reply exceeds %d bytes", limit)
	}
	parsed, err := r.c.wire.Parse(data)
	if err != nil {
		return LLMResponse{}, errors.New(r.redact(err.Error()))
	}
	if h := r.c.opts.Hooks; r.keepReply || (h != nil && h.AfterLLM != nil) {
		r.reply = data
	}
	return parsed, nil
}

// send posts body until it gets a 2xx reply, retrying what OnError (or the
// default classification) calls retryable, at most Retries times. Aborts
// are never retried.
func (r *run) send(ctx context.Context, body []byte) (*HTTPResponse, error) {
	o := &r.c.opts
	headers := r.c.wire.Headers(o.APIKey)
	for k, v := range o.Headers {
		headers[strings.ToLower(k)] = v
	}
	req := &HTTPRequest{Method: "POST", URL: r.c.wire.Endpoint(o.BaseURL), Header: headers, Body: body}
	for attempt := 0; ; attempt++ {
		start := time.Now()
		resp, err := o.Transport.Do(ctx, req)
		wait := time.Duration(-1)
		switch {
		case err != nil && ctx.Err() != nil:
			r.c.emit(MetricEvent{Kind: "llm", Model: o.Model, Status: "cancelled", Duration: time.Since(start), Err: ctx.Err().Error()})
			return nil, fmt.Errorf("core: model request: %w", ctx.Err())
		case err != nil:
			err = &networkError{fmt.Errorf("core: model request to %s: %s", withoutQuery(req.URL), r.redact(err.Error()))}
			r.c.emit(MetricEvent{Kind: "llm", Model: o.Model, Status: "error", Duration: time.Since(start), Err: err.Error()})
		case resp.Status < 200 || resp.Status > 299:
			data, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
			resp.Body.Close()
			wait = retryAfter(resp.Header["retry-after"])
			err = &ProviderError{Status: resp.Status, Body: r.redact(truncate(string(data), 1024)), RetryAfter: resp.Header["retry-after"]}
			r.c.emit(MetricEvent{Kind: "llm", Model: o.Model, Status: strconv.Itoa(resp.Status), Duration: time.Since(start), Err: err.Error()})
		default:
			return resp, nil
		}
		if attempt >= o.Retries || !r.shouldRetry(err, attempt+1) {
			return nil, err
		}
		if wait < 0 {
			wait = backoff(o.RetryBaseMs, attempt)
		}
		if serr := sleep(ctx, wait); serr != nil {
			return nil, fmt.Errorf("core: model request: waiting to retry after %v: %w", err, serr)
		}
	}
}

// shouldRetry asks OnError (the port's classifier), else ClassifyError,
// else the default; attempt counts from 1.
func (r *run) shouldRetry(err error, attempt int) bool {
	o := &r.c.opts
	def := retryable(err, o.RetryableStatuses)
	var tier Tier
	switch {
	case o.OnError != nil && r.c.port != nil:
		tier = r.c.port.classify(o.OnError, err, attempt, def)
	case o.ClassifyError != nil:
		tier = o.ClassifyError(err, attempt)
	}
	switch tier {
	case TierRetry:
		return true
	case TierFail:
		return false
	}
	return def
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// redact removes the API key from text that may reach a log or a caller.
// Providers echo a bad key back, whole or masked ("sk-abc1***wxyz"), so a
// word that starts with the key's first 8 characters goes too.
func (r *run) redact(s string) string { return redactKey(s, r.c.opts.APIKey) }

func redactKey(s, key string) string {
	if len(key) < 4 {
		return s
	}
	s = strings.ReplaceAll(s, key, "[redacted]")
	if len(key) < 12 {
		return s
	}
	prefix := key[:8]
	var b strings.Builder
	for {
		i := strings.Index(s, prefix)
		if i < 0 {
			break
		}
		end := i + len(prefix)
		for end < len(s) && !strings.ContainsRune(" \t\n\"',;)}]", rune(s[end])) {
			end++
		}
		b.WriteString(s[:i])
		b.WriteString("[redacted]")
		s = s[end:]
	}
	b.WriteString(s)
	return b.String()
}

// withoutQuery drops a URL's query string from messages: some providers
// take the key as a query parameter.
func withoutQuery(u string) string {
	if i := strings.IndexByte(u, '?'); i >= 0 {
		return u[:i] + "?…"
	}
	return u
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
