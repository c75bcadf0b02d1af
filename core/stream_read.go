package core

import (
	"errors"
	"fmt"
	"io"

	"github.com/toolnexus/wasm/core/wire"
	"github.com/toolnexus/wasm/internal/sse"
)

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
