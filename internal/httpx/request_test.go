package httpx

import (
	"errors"
	"io"
	"strings"
	"testing"
)

func TestCanonicalHeaderKey(t *testing.T) {
	for in, want := range map[string]string{
		"content-type": "Content-Type", "CONTENT-TYPE": "Content-Type", "Content-Type": "Content-Type",
		"mcp-session-id": "Mcp-Session-Id", "x": "X", "": "", "bad key": "bad key", "a_b-c": "A_b-C",
	} {
		if got := CanonicalHeaderKey(in); got != want {
			t.Errorf("CanonicalHeaderKey(%q) = %q, want %q", in, got, want)
		}
	}
	h := Header{}
	h.Add("x-a", "1")
	h.Add("X-A", "2")
	h.Set("content-type", "text/plain")
	if h.Get("X-a") != "1" || len(h.Values("x-A")) != 2 || h["Content-Type"][0] != "text/plain" {
		t.Errorf("header %v", h)
	}
	h.Del("X-A")
	if h.Get("x-a") != "" {
		t.Errorf("Del left %v", h)
	}
}

// TestMaxBytesReader: a body up to the limit reads whole; one byte more is
// a *MaxBytesError after the limit's bytes.
func TestMaxBytesReader(t *testing.T) {
	for _, tt := range []struct {
		body    string
		limit   int64
		tooLong bool
	}{{"", 0, false}, {"abc", 3, false}, {"abcd", 3, true}, {strings.Repeat("x", 5000), 4096, true}, {strings.Repeat("x", 4096), 4096, false}} {
		got, err := io.ReadAll(MaxBytesReader(nil, io.NopCloser(strings.NewReader(tt.body)), tt.limit))
		var mbe *MaxBytesError
		if tooLong := errors.As(err, &mbe); tooLong != tt.tooLong || (tooLong && mbe.Limit != tt.limit) {
			t.Errorf("%d bytes, limit %d: err %v", len(tt.body), tt.limit, err)
		}
		if !tt.tooLong && (err != nil || string(got) != tt.body) || tt.tooLong && int64(len(got)) != tt.limit {
			t.Errorf("%d bytes, limit %d: read %d, err %v", len(tt.body), tt.limit, len(got), err)
		}
	}
}

func TestNewRequest(t *testing.T) {
	r, err := NewRequest(nil, "POST", "https://w.example/v1/run?x=1", strings.NewReader("{}"))
	if err != nil || r.Method != "POST" || r.URL.Path != "/v1/run" || r.URL.Query().Get("x") != "1" || r.Host != "w.example" || r.Context() == nil {
		t.Fatalf("NewRequest = %+v, %v", r, err)
	}
	if b, _ := io.ReadAll(r.Body); string(b) != "{}" {
		t.Errorf("body %q", b)
	}
	if _, err := NewRequest(nil, "BAD METHOD", "/", nil); err == nil {
		t.Error("a method with a space was taken")
	}
}

// TestTokenMask: the table holds exactly RFC 9110's tchar bytes, and a key
// with any other byte is left as it is.
func TestTokenMask(t *testing.T) {
	const tchar = "!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	for c := 0; c < 256; c++ {
		want := c < 0x80 && strings.IndexByte(tchar, byte(c)) >= 0
		if got := tokenByte(byte(c)); got != want {
			t.Errorf("tokenByte(%#x) = %v, want %v", c, got, want)
		}
		if key := "x-" + string([]byte{byte(c)}) + "y"; !want && CanonicalHeaderKey(key) != key {
			t.Errorf("CanonicalHeaderKey(%q) changed a key with a non-token byte", key)
		}
	}
	long := strings.Repeat("ab-", 40) // longer than the stack buffer
	if got, want := CanonicalHeaderKey(long), strings.Repeat("Ab-", 40); got != want {
		t.Errorf("CanonicalHeaderKey(long) = %q, want %q", got, want)
	}
}
