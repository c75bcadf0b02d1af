//go:build js && wasm

package jsbridge

import (
	"context"
	"errors"
	fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx
	"syscall/js"
	"time"

	"github.com/toolnexus/wasm/core/journal"
)

// jsJournal is a core/journal.Journal kept by JavaScript: an object
//
//	{load(): Promise<string[]>, record(key, entryJSON): Promise<void>}
//
// load resolves to the entries recorded so far, as JSON texts in the order
// recorded; record appends one entry under its key and resolves once it is
// stored (an IndexedDB transaction committed), or rejects. A rejection for
// a key recorded already — an error named "ConstraintError", which is what
// IndexedDB's add() raises, or one with duplicate: true — is
// journal.ErrDuplicate: another continuation of the run got there first.
//
// Entries cross as JSON text, one await per record: a step costs a few
// tens of µs here, far below what storing it costs (web/browser-journal.mjs).
type jsJournal struct {
	obj js.Value
	// first, when set, is what the next Load returns without asking JS: the
	// entries a journaled run start read a moment ago (client_journal.go).
	first []journal.Entry
}

// journalFromJS checks that v has the journal's two methods.
func journalFromJS(v js.Value) (*jsJournal, error) {
	if v.Type() != js.TypeObject || !isFunc(v.Get("load")) || !isFunc(v.Get("record")) {
		return nil, errors.New("journal must be an object with load() and record(key, entryJSON)")
	}
	return &jsJournal{obj: v}, nil
}

// Load implements journal.Journal.
func (j *jsJournal) Load(ctx context.Context) ([]journal.Entry, error) {
	if j.first != nil {
		out := j.first
		j.first = nil
		return out, nil
	}
	p, err := CallMethod(j.obj, "load")
	if err != nil {
		return nil, fmt.Errorf("journal.load threw: %w", err)
	}
	v, err := await(ctx, p)
	if err != nil {
		return nil, fmt.Errorf("journal.load failed: %w", err)
	}
	if v.IsUndefined() || v.IsNull() {
		return nil, nil
	}
	if !jsIsArray(v) {
		return nil, errors.New("journal.load must resolve to an array of JSON texts")
	}
	texts := make([][]byte, v.Length())
	for i := range texts {
		t := v.Index(i)
		if t.Type() != js.TypeString {
			return nil, fmt.Errorf("journal.load: entry %d is not JSON text", i+1)
		}
		texts[i] = stringBytes(t)
	}
	return journal.DecodeAll(texts)
}

// Record implements journal.Journal.
func (j *jsJournal) Record(ctx context.Context, e journal.Entry) error {
	if e.At == 0 {
		e.At = time.Now().UnixMilli()
	}
	b, err := e.AppendJSON(nil)
	if err != nil {
		return err
	}
	key := e.Key()
	p, err := CallMethod(j.obj, "record", key, string(b))
	if err != nil {
		return fmt.Errorf("journal.record threw: %w", err)
	}
	if _, err := await(ctx, p); err != nil {
		// await's rejection, as it made it (no errors.As: it links
		// internal/reflectlite, 25 kB of the browser build).
		if r, ok := err.(*rejected); ok && isDuplicate(r.value) {
			return fmt.Errorf("%w: %s", journal.ErrDuplicate, key)
		}
		return fmt.Errorf("journal.record(%s) failed: %w", key, err)
	}
	return nil
}

// isDuplicate reports whether a record() rejection says the key was
// recorded already.
func isDuplicate(v js.Value) bool {
	if v.Type() != js.TypeObject {
		return false
	}
	return str(v, "name") == "ConstraintError" || v.Get("duplicate").Equal(js.ValueOf(true))
}

func jsIsArray(v js.Value) bool { return js.Global().Get("Array").Call("isArray", v).Bool() }
