package sse

import (
	"io"
	"strings"
	"testing"
)

func TestReader(t *testing.T) {
	in := ": comment\r\nevent: a\r\ndata: one\r\ndata:two\r\n\r\nid: 7\rdata: three\r\rdata: {\"x\":1}\n\n"
	s := NewReader(strings.NewReader(in), 1<<10)
	var got []string
	for {
		name, data, err := s.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, name+"|"+string(data))
	}
	if strings.Join(got, ";") != `a|one`+"\n"+`two;|three;|{"x":1}` {
		t.Fatalf("events = %q", got)
	}
	if _, _, err := NewReader(strings.NewReader("data: half"), 1<<10).Next(); err != io.ErrUnexpectedEOF {
		t.Fatalf("a cut event gave %v", err)
	}
	if _, _, err := NewReader(strings.NewReader("data: "+strings.Repeat("x", 100)+"\n\n"), 10).Next(); err != ErrEventTooLarge {
		t.Fatalf("an oversized event gave %v", err)
	}
}
