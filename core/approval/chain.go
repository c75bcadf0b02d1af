package approval

import (
	"encoding/hex"
	"strconv"
	"strings"
	"sync"
)

// Chain makes e the entry after one whose seq and hash are given (0 and ""
// for the first): it sets Seq, Prev and Hash.
func Chain(e Entry, seq int, prev string) Entry {
	e.Seq, e.Prev, e.Hash = seq+1, prev, ""
	e.Hash = hashOf(e)
	return e
}

// hashOf is SHA-256, in hex, of e's JSON without its hash.
func hashOf(e Entry) string {
	sum := sum256(append(e.appendBody(make([]byte, 0, 512)), '}'))
	return hex.EncodeToString(sum[:])
}

// Log is a record that chains entries as they are added. It is safe for
// concurrent use; the zero value is an empty record.
//
//	var log approval.Log
//	tk, _ := core.CreateToolkit(ctx, core.Options{Rules: rules, OnDecision: func(e approval.Entry) { log.Add(e) }})
//	…
//	err := approval.Verify(log.Entries(), log.Head()) // nil: nothing removed or changed
type Log struct {
	mu      sync.Mutex
	entries []Entry
	seq     int
	head    string
}

// NewLogAfter is a Log that continues a record whose last entry had seq
// and hash head (a record kept elsewhere, in part: a Worker's halted run).
func NewLogAfter(seq int, head string) *Log { return &Log{seq: seq, head: head} }

// Add chains e after the record's last entry, keeps it, and returns it.
func (l *Log) Add(e Entry) Entry {
	// Unlocked by hand, not deferred, here and below: a defer costs the
	// wasm builds more, and nothing between can panic.
	l.mu.Lock()
	e = Chain(e, l.seq, l.head)
	l.seq, l.head = e.Seq, e.Hash
	l.entries = append(l.entries, e)
	l.mu.Unlock()
	return e
}

// Entries returns the entries added, oldest first.
func (l *Log) Entries() []Entry {
	l.mu.Lock()
	out := append([]Entry(nil), l.entries...)
	l.mu.Unlock()
	return out
}

// Head returns the last entry's hash ("" for an empty record): kept
// apart from the record, it shows that no entry was cut from its end.
func (l *Log) Head() string {
	l.mu.Lock()
	h := l.head
	l.mu.Unlock()
	return h
}

// VerifyError names the first entry of a record that does not fit its
// chain.
type VerifyError struct {
	// Index is the entry's place in what was verified, from 1; Seq its
	// own number (0 for a missing last entry).
	Index, Seq int
	Problem    string
}

func (e *VerifyError) Error() string {
	return "decision record: entry " + strconv.Itoa(e.Index) + " (seq " + strconv.Itoa(e.Seq) + "): " + e.Problem
}

// Verify checks a whole record: it starts at seq 1 with Prev "", each
// entry's hash is that of its content, and each one's Prev is the hash of
// the one before and its Seq one more. With head (the last hash, kept
// apart: Log.Head, a Worker's "head"), the record must end there, so an
// entry cut from its end is found too. The error is a *VerifyError naming
// the first entry that does not fit. (A record kept in parts — a Worker's
// halted runs — is verified whole: its parts one after the other.)
func Verify(entries []Entry, head string) error {
	for i, e := range entries {
		bad := func(p string) error { return &VerifyError{Index: i + 1, Seq: e.Seq, Problem: p} }
		if e.Hash != hashOf(e) {
			return bad("its content does not match its hash: it was changed")
		}
		switch {
		case i == 0 && e.Seq != 1:
			return bad("a record starts at seq 1: the entries before it were removed")
		case i == 0 && e.Prev != "":
			return bad("the first entry of a record names an entry before it")
		case i > 0 && e.Seq != entries[i-1].Seq+1:
			return bad("it follows seq " + strconv.Itoa(entries[i-1].Seq) + ": the entries between were removed")
		case i > 0 && e.Prev != entries[i-1].Hash:
			return bad("the entry before it is not the one it was chained to: it was changed or removed")
		}
	}
	if head == "" {
		return nil
	}
	if len(entries) == 0 || entries[len(entries)-1].Hash != head {
		n := len(entries)
		return &VerifyError{Index: n + 1, Problem: "the record does not end at its head " + clip(head) + ": its last entries were removed"}
	}
	return nil
}

// AppendJSONL appends entries as JSON Lines: one entry per line.
func AppendJSONL(dst []byte, entries []Entry) []byte {
	for _, e := range entries {
		dst = append(e.AppendJSON(dst), '\n')
	}
	return dst
}

// ParseJSONL reads JSON Lines written by AppendJSONL (blank lines are
// skipped), naming the first line that is not an entry.
func ParseJSONL(text []byte) ([]Entry, error) {
	var out []Entry
	for n, line := range strings.Split(string(text), "\n") {
		line = strings.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		e, err := DecodeEntry([]byte(line))
		if err != nil {
			return nil, &VerifyError{Index: len(out) + 1, Problem: "line " + strconv.Itoa(n+1) + " is not an entry: " + err.Error()}
		}
		out = append(out, e)
	}
	return out, nil
}
