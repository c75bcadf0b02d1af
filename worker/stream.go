package worker

import (
	"context"
	"errors"
	"fmt"

	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/core/wire"
	"github.com/toolnexus/wasm/internal/httpx"
)

// ErrAnswered tells RunAgent that the step already wrote the response (a
// stream, once its headers are out, reports everything in its events).
var ErrAnswered = errors.New("worker: response already written")

// streamStarter starts one streamed run on the client.
type streamStarter func(ctx context.Context, c *core.Client, tk *core.Toolkit) (<-chan core.StreamEvent, error)

// streamStep returns a RunAgent step that answers with server-sent events:
//
//	event: <core.StreamEvent type>   (text, tool_call, tool_result, pending, usage)
//	data: <the event as JSON>
//
// and then exactly one of
//
//	event: done    data: the body POST /v1/run answers without "stream"
//	                     (state and stateExpiresAt when pending)
//	event: error   data: the error body the non-streaming route answers
//	                     ({"error": {...}, "result"?: partial run})
//
// A failure before the run starts (a bad history) is answered as plain
// JSON with its usual status. Every event is one Write and a flush: on
// Workers (Serve) each becomes one chunk of the response's ReadableStream,
// and natively the writer is flushed after each.
// A client that goes away cancels the run.
//
// after, when set, sees the final result and error before the last event
// is written (the conversation store saves the transcript there); an error
// it returns replaces a successful result.
func (h *Handler) streamStep(w httpx.ResponseWriter, r *httpx.Request, cfg Config, endpoint, workspace string, start streamStarter, after func(core.RunResult, error) error) func(*core.Client, *core.Toolkit) (core.RunResult, error) {
	return func(c *core.Client, tk *core.Toolkit) (core.RunResult, error) {
		ctx, cancel := context.WithCancel(r.Context())
		defer cancel()
		events, err := start(ctx, c, tk)
		if err != nil {
			return core.RunResult{Status: core.StatusIncomplete, Limit: "error"}, fmt.Errorf("start stream: %w", err)
		}
		sse := NewSSEWriter(w)
		sse.Comment("toolnexus stream")
		var final core.StreamEvent
		for e := range events {
			if e.Type == core.EventDone || e.Type == core.EventError {
				final = e
				continue
			}
			if err := sse.Event(e.Type, e); err != nil {
				// The client is gone: stop the run, then drain the channel
				// (core closes it once the run has unwound).
				cancel()
			}
		}
		var res core.RunResult
		if final.Result != nil {
			res = *final.Result
		}
		runErr := final.Err
		switch {
		case final.Type == "":
			runErr = errors.New("the stream ended without a result")
		case final.Type == core.EventError && runErr == nil:
			runErr = errors.New("the run failed")
		}
		if after != nil {
			if err := after(res, runErr); err != nil && runErr == nil {
				runErr = err
			}
		}
		if runErr != nil {
			h.metrics.run(endpoint, "error")
			_, body := h.RunErrorBody(cfg, res, runErr)
			sse.Event(core.EventError, body)
			return res, ErrAnswered
		}
		out, err := h.FinishRun(cfg, endpoint, workspace, res)
		if err != nil {
			h.opts.Logf("worker: internal error: %v", err)
			sse.Event(core.EventError, ErrorBody{Error: APIError{Code: "internal", Message: "internal error"}})
			return res, ErrAnswered
		}
		sse.Event(core.EventDone, out)
		return res, ErrAnswered
	}
}

// SSEWriter writes server-sent events, one Write per event.
type SSEWriter struct {
	w       httpx.ResponseWriter
	started bool
	err     error // the first write error: the client went away
}

// NewSSEWriter returns an SSEWriter on w.
func NewSSEWriter(w httpx.ResponseWriter) *SSEWriter {
	return &SSEWriter{w: w}
}

// start sends the headers; they go out with the first chunk.
func (s *SSEWriter) start() {
	if s.started {
		return
	}
	s.started = true
	h := s.w.Header()
	h.Set("Content-Type", "text/event-stream; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	h.Del("Content-Length")
	s.w.WriteHeader(httpx.StatusOK)
}

// Comment writes an SSE comment line: the response (status and headers)
// reaches the client at once, before the model has said anything.
func (s *SSEWriter) Comment(text string) error {
	return s.Send([]byte(": " + text + "\n\n"))
}

// Event writes one event whose data is v as JSON (one line: strings escape
// their newlines and marshalJSON compacts raw messages).
func (s *SSEWriter) Event(name string, v any) error {
	data, err := marshalJSON(v)
	if err != nil {
		data, _ = marshalJSON(ErrorBody{Error: APIError{Code: "internal", Message: "could not encode the event"}})
		name = core.EventError
	}
	b := make([]byte, 0, len(name)+len(data)+16)
	b = append(b, "event: "...)
	b = append(b, name...)
	b = append(b, "\ndata: "...)
	b = append(b, data...)
	b = append(b, "\n\n"...)
	return s.Send(b)
}

// Send writes b, whole events, and flushes them.
func (s *SSEWriter) Send(b []byte) error {
	if s.err != nil {
		return s.err
	}
	s.start()
	if _, err := s.w.Write(b); err != nil {
		s.err = fmt.Errorf("write event: %w", err)
		return s.err
	}
	httpx.Flush(s.w) // a write error says the client went away
	return s.err
}

// FinishReason maps a provider's stop reason to OpenAI's vocabulary
// (wire.OpenAIFinishReason); a reply that gave none stopped.
func FinishReason(reason string, toolCalls bool) string {
	if reason == "" && !toolCalls {
		return "stop"
	}
	return wire.OpenAIFinishReason(reason, toolCalls)
}
