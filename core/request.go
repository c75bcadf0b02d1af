package core

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
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

// send posts body until it gets a 2xx reply, retrying what ClassifyError (or the
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
			err = &ProviderError{Status: resp.Status, Body: r.providerBody(resp.Status, string(data)), RetryAfter: resp.Header["retry-after"]}
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
