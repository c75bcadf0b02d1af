package sse

import (
	"io"
	"strings"
	"testing"
)

// A stream of any bytes ends in an event, io.EOF, io.ErrUnexpectedEOF or
// ErrEventTooLarge: never a panic, never another error.
func FuzzReader(f *testing.F) {
	f.Add("event: a\ndata: 1\n\n: c\r\ndata: 2\r\r")
	f.Add(strings.Repeat("data: x\n", 100))
	f.Fuzz(func(t *testing.T, in string) {
		s := NewReader(strings.NewReader(in), 1<<12)
		for i := 0; i < 10000; i++ {
			if _, _, err := s.Next(); err != nil {
				if err != io.EOF && err != io.ErrUnexpectedEOF && err != ErrEventTooLarge {
					t.Fatalf("unexpected error %v", err)
				}
				return
			}
		}
	})
}
