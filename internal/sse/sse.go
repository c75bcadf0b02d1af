// Package sse reads server-sent events (the text/event-stream format):
// the streamed model replies and MCP's HTTP+SSE transport both use it.
package sse

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// Reader reads server-sent events: "event:" and "data:" fields, data
// lines joined with "\n", an event dispatched at each blank line. It accepts
// LF, CRLF and CR line ends and skips comments (": keep-alive").
type Reader struct {
	r        *bufio.Reader
	maxEvent int
}

// NewReader reads events from r; an event over maxEvent bytes is
// ErrEventTooLarge.
func NewReader(r io.Reader, maxEvent int) *Reader {
	return &Reader{r: bufio.NewReaderSize(r, 16<<10), maxEvent: maxEvent}
}

// ErrEventTooLarge is Next's error for an event over the size limit.
var ErrEventTooLarge = errors.New("core: a stream event exceeds the size limit")

// Next returns the next event. At the end of the stream it returns io.EOF;
// a stream that ends inside an event returns io.ErrUnexpectedEOF.
func (s *Reader) Next() (event string, data []byte, err error) {
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
				return "", nil, ErrEventTooLarge
			}
		}
	}
}

// readLine returns one line without its terminator.
func (s *Reader) readLine() ([]byte, error) {
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
			return nil, ErrEventTooLarge
		}
	}
}
