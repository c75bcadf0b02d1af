package approval

import (
	"crypto/sha256"
	"encoding/json"
	"errors"
	"path"
	"strings"
	"testing"
	"time"
)

// sampleRecord is a record of four decisions: a rule's, an edit, a link
// approval and a decline.
func sampleRecord() *Log {
	var l Log
	l.Add(Entry{At: "2026-05-01T10:00:00.000Z", Run: "run_1", Call: "c1", Tool: "refund", Asked: json.RawMessage(`{"amount":20}`), Ran: json.RawMessage(`{"amount":20}`), Decision: Allowed, Rule: "small refunds", From: FromRule})
	l.Add(Entry{At: "2026-05-01T10:00:01.000Z", Run: "run_1", Call: "c2", Tool: "refund", Request: "req_2", Asked: json.RawMessage(`{"amount":900}`), Ran: json.RawMessage(`{"amount":90}`), Decision: Edited, Approver: "in page", From: FromTab})
	l.Add(Entry{At: "2026-05-01T10:00:02.000Z", Run: "run_1", Call: "c3", Tool: "refund", Request: "req_3", Asked: json.RawMessage(`{"amount":70}`), Ran: json.RawMessage(`{"amount":70}`), Decision: Approved, Approver: "alice", From: FromLink, Grant: GrantArgs})
	l.Add(Entry{At: "2026-05-01T10:00:03.000Z", Run: "run_1", Call: "c4", Tool: "delete", Request: "req_4", Asked: json.RawMessage(`{}`), Decision: Declined, Reason: "not today", Approver: "in page", From: FromTab, Path: []string{"support", "billing"}})
	return &l
}

func TestLogChains(t *testing.T) {
	l := sampleRecord()
	entries := l.Entries()
	if err := Verify(entries, l.Head()); err != nil {
		t.Fatal(err)
	}
	for i, e := range entries {
		if e.Seq != i+1 || len(e.Hash) != 64 || (i == 0) != (e.Prev == "") || (i > 0 && e.Prev != entries[i-1].Hash) {
			t.Fatalf("entry %d = %+v", i+1, e)
		}
	}
	text := AppendJSONL(nil, entries)
	if strings.Count(string(text), "\n") != 4 {
		t.Fatalf("JSONL:\n%s", text)
	}
	back, err := ParseJSONL(text)
	if err != nil {
		t.Fatal(err)
	}
	if err := Verify(back, l.Head()); err != nil {
		t.Fatalf("read back: %v", err)
	}
	if string(AppendJSONL(nil, back)) != string(text) {
		t.Errorf("written again differs:\n%s\n%s", AppendJSONL(nil, back), text)
	}
}

// TestVerifyNamesAChangedEntry changes each field of each entry in turn:
// verify fails and names that entry.
func TestVerifyNamesAChangedEntry(t *testing.T) {
	l := sampleRecord()
	edits := map[string]func(*Entry){
		"at":       func(e *Entry) { e.At = "2026-05-01T09:00:00.000Z" },
		"tool":     func(e *Entry) { e.Tool = "charge" },
		"asked":    func(e *Entry) { e.Asked = json.RawMessage(`{"amount":1}`) },
		"ran":      func(e *Entry) { e.Ran = json.RawMessage(`{"amount":1}`) },
		"decision": func(e *Entry) { e.Decision = Denied },
		"reason":   func(e *Entry) { e.Reason = "fine" },
		"approver": func(e *Entry) { e.Approver = "mallory" },
		"from":     func(e *Entry) { e.From = FromAPI },
		"rule":     func(e *Entry) { e.Rule = "anything goes" },
		"path":     func(e *Entry) { e.Path = []string{"x"} },
	}
	for i := range l.Entries() {
		for field, edit := range edits {
			entries := l.Entries()
			edit(&entries[i])
			err := Verify(entries, l.Head())
			var ve *VerifyError
			if !errors.As(err, &ve) || ve.Index != i+1 || !strings.Contains(err.Error(), "entry "+itoa(i+1)+" ") {
				t.Errorf("entry %d, %s changed: %v", i+1, field, err)
			}
		}
	}
	// A forger who rehashes the changed entry breaks the next one's link.
	entries := l.Entries()
	entries[1].Reason = "fine"
	entries[1].Hash = hashOf(entries[1])
	if err := Verify(entries, l.Head()); err == nil || !strings.Contains(err.Error(), "entry 3 (seq 3)") {
		t.Errorf("rehashed: %v", err)
	}
	// Rehashing every later entry too leaves a record that no longer ends
	// at the head kept apart.
	for i := 2; i < len(entries); i++ {
		entries[i] = Chain(entries[i], entries[i-1].Seq, entries[i-1].Hash)
	}
	if err := Verify(entries, ""); err != nil {
		t.Errorf("a rewritten chain verifies on its own: %v", err)
	}
	if err := Verify(entries, l.Head()); err == nil || !strings.Contains(err.Error(), "does not end at its head") {
		t.Errorf("rewritten against the head: %v", err)
	}
}

// TestVerifyNamesARemovedEntry removes each entry in turn.
func TestVerifyNamesARemovedEntry(t *testing.T) {
	l := sampleRecord()
	all := l.Entries()
	for i := range all {
		entries := append(append([]Entry(nil), all[:i]...), all[i+1:]...)
		err := Verify(entries, l.Head())
		var ve *VerifyError
		if !errors.As(err, &ve) {
			t.Fatalf("entry %d removed: %v", i+1, err)
		}
		switch {
		case i == 0 && ve.Index != 1:
			t.Errorf("first removed: %v", err)
		case i == len(all)-1 && !strings.Contains(err.Error(), "its last entries were removed"):
			t.Errorf("last removed: %v", err)
		case i > 0 && i < len(all)-1 && (ve.Index != i+1 || ve.Seq != i+2):
			t.Errorf("entry %d removed: %v, want the entry after it named", i+1, err)
		}
	}
	if err := Verify(nil, l.Head()); err == nil {
		t.Error("an emptied record verifies against its head")
	}
	if err := Verify(all[2:], ""); err == nil || !strings.Contains(err.Error(), "starts at seq 1") {
		t.Errorf("a record's tail: %v", err)
	}
}

func TestParseJSONLNamesABadLine(t *testing.T) {
	text := AppendJSONL(nil, sampleRecord().Entries())
	text = append(text, "not json\n"...)
	if _, err := ParseJSONL(text); err == nil || !strings.Contains(err.Error(), "line 5 is not an entry") {
		t.Errorf("ParseJSONL = %v", err)
	}
}

func itoa(n int) string { return strings.TrimSpace(string(rune('0' + n))) }

// TestSum256 holds the package's SHA-256 to crypto/sha256's.
func TestSum256(t *testing.T) {
	for n := 0; n < 300; n++ {
		msg := []byte(strings.Repeat("abcdefghij", 30)[:n])
		if got, want := sum256(msg), sha256.Sum256(msg); got != want {
			t.Fatalf("sum256 of %d bytes = %x, want %x", n, got, want)
		}
	}
}

func TestStamp(t *testing.T) {
	for _, tm := range []time.Time{time.Date(2026, 5, 1, 9, 3, 4, 7_000_000, time.UTC), time.Date(987, 12, 31, 23, 59, 59, 999_999_999, time.FixedZone("x", 3600))} {
		if got, want := Stamp(tm), tm.UTC().Format("2006-01-02T15:04:05.000Z"); got != want {
			t.Errorf("Stamp = %s, want %s", got, want)
		}
	}
}

func TestCleanPath(t *testing.T) {
	for _, p := range []string{"drafts/a.md", "drafts/../secret", "./drafts//a", "/drafts/./x/../y", "../drafts/a", "a/b/../../..", ""} {
		want := path.Clean(p)
		if want == "." {
			want = ""
		}
		if got := cleanPath(p); got != want {
			t.Errorf("cleanPath(%q) = %q, want %q", p, got, want)
		}
	}
}
