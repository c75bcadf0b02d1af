package core

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
)

// sseReader reads server-sent events: "event:" and "data:" fields, data
// lines joined with "\n", an event dispatched at each blank line. It accepts
// LF, CRLF and CR line ends and skips comments (": keep-alive").
type sseReader struct {
	r        *bufio.Reader
	maxEvent int
}

func newSSEReader(r io.Reader, maxEvent int) *sseReader {
	return &sseReader{r: bufio.NewReaderSize(r, 16<<10), maxEvent: maxEvent}
}

var errEventTooLarge = errors.New("core: a stream event exceeds the size limit")

// next returns the next event. At the end of the stream it returns io.EOF;
// a stream that ends inside an event returns io.ErrUnexpectedEOF.
func (s *sseReader) next() (event string, data []byte, err error) {
	var buf []byte
	hasData := false
	inEvent := false
	for {
		line, err := s.readLine()
		if err != nil {
			if err == io.EOF && (hasData || inEvent) {
				return "", nil, io.ErrUnexpectedEOF
			}
			return "", nil, err
		}
		if len(line) == 0 {
			if hasData || event != "" {
				return event, buf, nil
			}
			continue
		}
		inEvent = true
		if line[0] == ':' {
			continue
		}
		field, value := line, []byte(nil)
		if i := bytes.IndexByte(line, ':'); i >= 0 {
			field, value = line[:i], line[i+1:]
			value = bytes.TrimPrefix(value, []byte(" "))
		}
		switch string(field) {
		case "event":
			event = string(value)
		case "data":
			if hasData {
				buf = append(buf, '\n')
			}
			buf = append(buf, value...)
			hasData = true
			if len(buf) > s.maxEvent {
				return "", nil, errEventTooLarge
			}
		}
	}
}

// readLine returns one line without its terminator.
func (s *sseReader) readLine() ([]byte, error) {
	var line []byte
	for {
		b, err := s.r.ReadByte()
		if err != nil {
			if err == io.EOF && len(line) > 0 {
				return nil, io.ErrUnexpectedEOF
			}
			return nil, err
		}
		switch b {
		case '\n':
			return line, nil
		case '\r':
			if nb, err := s.r.Peek(1); err == nil && nb[0] == '\n' {
				_, _ = s.r.ReadByte()
			}
			return line, nil
		}
		line = append(line, b)
		if len(line) > s.maxEvent {
			return nil, errEventTooLarge
		}
	}
}

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
	sse := newSSEReader(body, r.c.opts.MaxResponseBytes)
	emit := r.stream
	if emit != nil && !r.callDeltas {
		emit = func(e StreamEvent) {
			if e.Type != EventToolCallDelta {
				r.stream(e)
			}
		}
	}
	for {
		name, data, err := sse.next()
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
