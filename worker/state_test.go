package worker

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/toolnexus/wasm/core"
)

func TestSealOpenRoundTrip(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	s := NewSealer(testSecret, func() time.Time { return now })
	msgs := []any{json.RawMessage(`{"role":"user","content":"hi"}`), map[string]any{"role": "assistant", "content": "yo"}}
	pending := core.Request{ID: "req_1", Kind: "approval", Data: map[string]any{"tool": "refund"}}
	token, sealed, err := s.Seal("openai", "", pending, msgs, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	st, err := s.Open("openai", token)
	if err != nil {
		t.Fatal(err)
	}
	if st.ID != sealed.ID || !strings.HasPrefix(st.ID, "st_") || st.ExpiresAt != now.Add(time.Minute).Unix() || st.Pending.ID != "req_1" {
		t.Fatalf("opened %+v", st)
	}
	if got := string(st.History()[0].(json.RawMessage)); got != `{"role":"user","content":"hi"}` {
		t.Fatalf("message 0 = %s", got)
	}
	if got := string(st.History()[1].(json.RawMessage)); got != `{"content":"yo","role":"assistant"}` {
		t.Fatalf("message 1 = %s", got)
	}
	if other, _, _ := s.Seal("openai", "", pending, msgs, time.Minute); other == token {
		t.Fatal("two seals gave the same token: ids are not unique")
	}
}

func TestOpenRefuses(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	clock := func() time.Time { return now }
	s := NewSealer(testSecret, clock)
	token, _, err := s.Seal("openai", "", core.Request{ID: "req_1"}, nil, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	parts := strings.Split(token, ".")
	payload, _ := base64.RawURLEncoding.DecodeString(parts[1])
	edited := strings.Replace(string(payload), `"req_1"`, `"req_2"`, 1)
	later := NewSealer(testSecret, func() time.Time { return now.Add(time.Minute) })
	foreign, _, _ := NewSealer("another-secret-0123456789abcdef012345", clock).Seal("openai", "", core.Request{ID: "req_1"}, nil, time.Minute)

	tests := []struct {
		name   string
		sealer *Sealer
		style  string
		token  string
		want   *StateError
	}{
		{"edited payload", s, "openai", parts[0] + "." + base64.RawURLEncoding.EncodeToString([]byte(edited)) + "." + parts[2], errStateForged},
		{"edited signature", s, "openai", parts[0] + "." + parts[1] + "." + flipLast(parts[2]), errStateForged},
		{"foreign secret", s, "openai", foreign, errStateForged},
		{"expired", later, "openai", token, errStateExpired},
		{"unknown version", s, "openai", "tn0." + parts[1] + "." + parts[2], errStateVersion},
		{"two parts", s, "openai", parts[0] + "." + parts[1], errStateMalformed},
		{"empty", s, "openai", "", errStateMalformed},
		{"bad base64 signature", s, "openai", parts[0] + "." + parts[1] + ".!!", errStateMalformed},
		{"other wire style", s, "anthropic", token, errStateStyle},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.sealer.Open(tt.style, tt.token)
			var se *StateError
			if !errors.As(err, &se) || se != tt.want {
				t.Fatalf("Open = %v, want %v", err, tt.want)
			}
		})
	}
}

// flipLast changes the last base64 character to another valid one.
func flipLast(s string) string {
	c := s[len(s)-1]
	if c == 'A' {
		c = 'Q'
	} else {
		c = 'A'
	}
	return s[:len(s)-1] + string(c)
}

// TestEveryCharacterIsSealed: changing any one character of a token
// makes it refused.
func TestEveryCharacterIsSealed(t *testing.T) {
	s := NewSealer(testSecret, nil)
	token, _, err := s.Seal("openai", "", core.Request{ID: "req_1"}, []any{json.RawMessage(`{"role":"user","content":"hi"}`)}, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	for i := range token {
		for _, c := range []byte{'A', 'B', '.', '-'} {
			if token[i] == c {
				continue
			}
			edited := token[:i] + string(c) + token[i+1:]
			if _, err := s.Open("openai", edited); err == nil {
				t.Fatalf("token with %q at %d opened", c, i)
			}
		}
	}
}

// FuzzOpen: no input makes Open panic, and what opens is a whole State.
func FuzzOpen(f *testing.F) {
	now := time.Unix(1_800_000_000, 0)
	s := NewSealer(testSecret, func() time.Time { return now })
	token, _, err := s.Seal("openai", "", core.Request{ID: "req_1"}, []any{json.RawMessage(`{"role":"user","content":"hi"}`)}, time.Minute)
	if err != nil {
		f.Fatal(err)
	}
	for _, seed := range []string{token, "", "tn1..", "tn1.e30.", token + "x", strings.ToUpper(token)} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, in string) {
		st, err := s.Open("openai", in)
		if err == nil && (st.ID == "" || st.Pending.ID == "" || st.Style != "openai" || st.ExpiresAt <= now.Unix()) {
			t.Fatalf("opened an incomplete state: %q -> %+v", in, st)
		}
	})
}
