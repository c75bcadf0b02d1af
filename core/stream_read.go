package core

import (
	"errors"
	"fmt"
	"io"

	"github.com/toolnexus/wasm/internal/sse"
)

// streamAccumulator assembles one streamed reply from its events, emitting
// text deltas as they come.
type streamAccumulator interface {
	// event handles one SSE event; done reports the reply is complete.
	event(name string, data []byte, emit func(StreamEvent)) (done bool, err error)
	// response returns what was assembled, also after an error (partial).
	response() LLMResponse
	// complete reports whether the reply's end was seen (some servers
	// close the stream after the finish reason without a terminator).
	complete() bool
}

// readStream reads a streamed reply to its end. A stream that stops before
// the reply is complete is an error; the text received so far has already
// been emitted and is kept in the result.
func (r *run) readStream(body io.Reader) (LLMResponse, error) {
	acc := r.c.wire.newStream()
	events := sse.NewReader(body, r.c.opts.MaxResponseBytes)
	emit := r.stream
	if emit != nil && !r.callDeltas {
		emit = func(e StreamEvent) {
			if e.Type != EventToolCallDelta {
				r.stream(e)
			}
		}
	}
	for {
		name, data, err := events.Next()
		if err == io.EOF && acc.complete() {
			return acc.response(), nil
		}
		if err != nil {
			partial := acc.response()
			r.result.Text = partial.Text
			if err == io.EOF || err == io.ErrUnexpectedEOF {
				return partial, errors.New("core: the stream ended before the reply was complete")
			}
			return partial, fmt.Errorf("core: read stream: %s", r.redact(err.Error()))
		}
		done, err := acc.event(name, data, emit)
		if err != nil {
			partial := acc.response()
			r.result.Text = partial.Text
			return partial, errors.New(r.redact(err.Error()))
		}
		if done {
			return acc.response(), nil
		}
	}
}
