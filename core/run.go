package core

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"
)

// run is the state of one Run / RunWithAnswer call.
type run struct {
	c      *Client
	tk     *Toolkit
	tr     transcript
	result RunResult
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
	return r, nil
}

func (r *run) appendMessage(m json.RawMessage) { r.tr.add(m) }

// loop alternates model calls and tool phases. resume, when set, is the tool
// phase of a halted turn to finish before the next model call.
func (r *run) loop(ctx context.Context, resume *toolPhase) (res RunResult, err error) {
	if r.c.opts.TimeoutMs > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, time.Duration(r.c.opts.TimeoutMs)*time.Millisecond)
		defer cancel()
	}
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
			resp, err := r.callModel(ctx)
			if err != nil {
				return r.finish(StatusIncomplete, "error"), err
			}
			r.appendMessage(r.c.wire.assistantMessage(resp))
			r.result.Text = resp.Text
			if len(resp.ToolCalls) == 0 {
				return r.finish(StatusDone, ""), nil
			}
			resume = r.newToolPhase(resp.ToolCalls)
		}
		halt, err := r.runTools(ctx, resume)
		resume = nil
		if err != nil {
			return r.finish(StatusIncomplete, "error"), err
		}
		if halt != nil {
			r.result.Pending = halt
			return r.finish(StatusPending, ""), nil
		}
	}
}

func (r *run) finish(status, limit string) RunResult {
	r.result.Status, r.result.Limit = status, limit
	r.result.Messages = r.tr.asAny()
	r.result.ToolCallCount = len(r.result.ToolCalls)
	return r.result
}

// callModel performs one provider call, through the hooks.
func (r *run) callModel(ctx context.Context) (LLMResponse, error) {
	o := &r.c.opts
	turn := r.result.Turns + 1
	body := r.c.wire.body(o, r.tr.joined, r.tk.wireTools(o.Style))
	var resp LLMResponse
	var short *LLMResponse
	if h := o.Hooks.BeforeLLM; h != nil {
		var err error
		if short, err = h(ctx, turn, &body); err != nil {
			return LLMResponse{}, fmt.Errorf("core: BeforeLLM hook: %w", err)
		}
	}
	if short != nil {
		resp = *short
		resp.message = nil
	} else {
		var err error
		if resp, err = r.post(ctx, body); err != nil {
			return LLMResponse{}, err
		}
	}
	if h := o.Hooks.AfterLLM; h != nil {
		if err := h(ctx, turn, &resp); err != nil {
			return LLMResponse{}, fmt.Errorf("core: AfterLLM hook: %w", err)
		}
		resp.message = nil // the hook may have changed it: rebuild
	}
	r.result.Turns = turn
	r.result.Usage.add(resp.Usage)
	if resp.Model != "" {
		r.result.Model = resp.Model
	}
	return resp, nil
}

// post sends one request body to the provider and parses the reply.
func (r *run) post(ctx context.Context, body []byte) (LLMResponse, error) {
	o := &r.c.opts
	headers := r.c.wire.headers(o.APIKey)
	for k, v := range o.Headers {
		headers[strings.ToLower(k)] = v
	}
	req := &HTTPRequest{Method: "POST", URL: r.c.wire.endpoint(o.BaseURL), Header: headers, Body: body}
	resp, err := o.Transport.Do(ctx, req)
	if err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return LLMResponse{}, fmt.Errorf("core: model request: %w", ctxErr)
		}
		return LLMResponse{}, fmt.Errorf("core: model request to %s: %s", req.URL, r.redact(err.Error()))
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, int64(o.MaxResponseBytes)+1))
	if err != nil {
		return LLMResponse{}, fmt.Errorf("core: read model reply: %s", r.redact(err.Error()))
	}
	if len(data) > o.MaxResponseBytes {
		return LLMResponse{}, fmt.Errorf("core: model reply exceeds %d bytes", o.MaxResponseBytes)
	}
	if resp.Status < 200 || resp.Status > 299 {
		return LLMResponse{}, &ProviderError{Status: resp.Status, Body: r.redact(truncate(string(data), 1024))}
	}
	parsed, err := r.c.wire.parse(data)
	if err != nil {
		return LLMResponse{}, errors.New(r.redact(err.Error()))
	}
	return parsed, nil
}

// redact removes the API key from text that may reach a log or a caller:
// some providers echo part of a bad key in their error body.
func (r *run) redact(s string) string {
	if k := r.c.opts.APIKey; len(k) >= 4 {
		s = strings.ReplaceAll(s, k, "[redacted]")
	}
	return s
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
