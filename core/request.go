package core

import (
	"context"
	"errors"
	fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/toolnexus/wasm/core/tool"
	"github.com/toolnexus/wasm/core/wire"
	"github.com/toolnexus/wasm/internal/sse"
)

// request sends one body (with retries) and reads the reply, streamed or whole.
func (r *run) request(ctx context.Context, body []byte) (LLMResponse, error) {
	o := &r.c.opts
	if o.BodyTransform != nil {
		var err error
		if body, err = o.BodyTransform(body); err != nil {
			return LLMResponse{}, fmt.Errorf("core: BodyTransform: %w", err)
		}
	}
	start := clock()
	resp, err := r.send(ctx, body, start)
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
	r.c.emit(MetricEvent{Kind: "llm", Model: o.Model, Status: status, Duration: clock() - start, Usage: parsed.Usage, Err: errText(err)})
	return parsed, err
}

func (r *run) readWhole(body io.Reader) (LLMResponse, error) {
	data, err := tool.ReadReply(body, r.c.opts.MaxResponseBytes)
	if err != nil {
		return LLMResponse{}, fmt.Errorf("core: %s", r.redact(err.Error()))
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

// send posts body until it gets a 2xx reply, retrying what ClassifyError (or the
// default classification) calls retryable, at most Retries times. Aborts
// are never retried. start is when the first attempt began.
func (r *run) send(ctx context.Context, body []byte, start time.Duration) (*HTTPResponse, error) {
	o := &r.c.opts
	headers := r.c.wire.Headers(o.APIKey)
	for k, v := range o.Headers {
		headers[strings.ToLower(k)] = v
	}
	req := &HTTPRequest{Method: "POST", URL: r.c.wire.Endpoint(o.BaseURL), Header: headers, Body: body, ReadHeaders: tool.ModelReplyHeaders}
	for attempt := 0; ; attempt++ {
		if attempt > 0 {
			start = clock()
		}
		resp, err := o.Transport.Do(ctx, req)
		wait := time.Duration(-1)
		switch {
		case err != nil && ctx.Err() != nil:
			r.c.emit(MetricEvent{Kind: "llm", Model: o.Model, Status: "cancelled", Duration: clock() - start, Err: ctx.Err().Error()})
			return nil, fmt.Errorf("core: model request: %w", ctx.Err())
		case err != nil:
			err = &networkError{fmt.Errorf("core: model request to %s: %s", withoutQuery(req.URL), r.redact(err.Error()))}
			r.c.emit(MetricEvent{Kind: "llm", Model: o.Model, Status: "error", Duration: clock() - start, Err: err.Error()})
		case resp.Status < 200 || resp.Status > 299:
			data, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
			resp.Body.Close()
			wait = retryAfter(resp.Header["retry-after"])
			err = &ProviderError{Status: resp.Status, Body: r.providerBody(resp.Status, string(data)), RetryAfter: resp.Header["retry-after"]}
			r.c.emit(MetricEvent{Kind: "llm", Model: o.Model, Status: strconv.Itoa(resp.Status), Duration: clock() - start, Err: err.Error()})
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

// shouldRetry asks ClassifyError, else the default; attempt counts from 1.
func (r *run) shouldRetry(err error, attempt int) bool {
	o := &r.c.opts
	var action ErrorAction
	if o.ClassifyError != nil {
		action = o.ClassifyError(err, attempt)
	}
	switch action {
	case ErrorRetry:
		return true
	case ErrorFail:
		return false
	}
	return Retryable(err, o.RetryableStatuses)
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// sleep waits d or until ctx ends.
func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// readStream reads a streamed reply to its end. A stream that stops before
// the reply is complete is an error; the text received so far has already
// been emitted and is kept in the result.
func (r *run) readStream(body io.Reader) (LLMResponse, error) {
	acc := r.c.wire.NewStream()
	events := sse.NewReader(body, r.c.opts.MaxResponseBytes)
	var emit func(wire.Delta)
	if r.stream != nil {
		emit = func(d wire.Delta) {
			if d.Type != wire.DeltaToolCall || r.callDeltas {
				r.stream(streamEvent(d))
			}
		}
	}
	for {
		name, data, err := events.Next()
		if err == io.EOF && acc.Complete() {
			return acc.Response(), nil
		}
		if err != nil {
			partial := acc.Response()
			r.result.Text = partial.Text
			if err == io.EOF || err == io.ErrUnexpectedEOF {
				return partial, errors.New("core: the stream ended before the reply was complete")
			}
			return partial, fmt.Errorf("core: read stream: %s", r.redact(err.Error()))
		}
		done, err := acc.Event(name, data, emit)
		if err != nil {
			partial := acc.Response()
			r.result.Text = partial.Text
			return partial, errors.New(r.redact(err.Error()))
		}
		if done {
			return acc.Response(), nil
		}
	}
}

// redact removes the API key from text that may reach a log or a caller.
// Providers echo a bad key back, whole or masked ("sk-abc1***wxyz"), so a
// word that starts with the key's first 8 characters goes too.
func (r *run) redact(s string) string { return redactKey(s, r.c.opts.APIKey) }

// providerBody is what a ProviderError keeps of a reply's body: without the
// API key, then ClientOptions.RedactBody's, or dropAuthBody's.
func (r *run) providerBody(status int, body string) string {
	body = r.redact(body)
	if f := r.c.opts.RedactBody; f != nil {
		return f(status, body)
	}
	return dropAuthBody(status, body)
}

// dropAuthBody drops a 401 or 403 reply's body (it may echo credentials).
func dropAuthBody(status int, body string) string {
	if status == 401 || status == 403 {
		return ""
	}
	return strings.TrimSpace(body)
}

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
