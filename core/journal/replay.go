package journal

import (
	fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx
)

// State is what a journal's entries say of a run: Replay reads them, and a
// continuation (core's Client.Continue), a status page or a test decides on
// it. Each field points into the entries given to Replay.
type State struct {
	// Start is the run's first entry; End its last, when it ended.
	Start *Entry
	End   *Entry
	// Turns are the model calls begun, in order.
	Turns []*Turn
	// Halted is turn 0 of a resumed run (a start entry with a Request):
	// the calls of the halted turn its history ends in that have entries,
	// in the order of their first entry. Which calls the turn holds only
	// the history says (core reads it).
	Halted *Turn
	// Answers holds, by request id, the first answer recorded for it and
	// its position; a later one for the same request is not kept.
	Answers map[string]Placed
	// Decisions are the approval record's entries, in order.
	Decisions []*Entry
	// Entries counts the entries; LastAt is the time of the newest.
	Entries int
	LastAt  int64
}

// Placed is an entry and its position among the run's (from 0).
type Placed struct {
	*Entry
	Seq int
}

// Turn is one model call and what came of it.
type Turn struct {
	N int
	// Attempts counts the model entries: how often the call was begun.
	Attempts int
	// Reply is the turn entry: nil while the call has no recorded reply.
	Reply *Entry
	// Calls are the reply's tool calls, in its order.
	Calls []*Call
}

// Call is one tool call of a turn and what is recorded of it.
type Call struct {
	ID, Name string
	// Starts are its call entries (one per attempt), in order.
	Starts []Placed
	// Suspends are the requests it suspended on, in order.
	Suspends []Placed
	// Outcome is its result, once recorded.
	Outcome *Entry
}

// Last returns the turn begun last, or nil.
func (s *State) Last() *Turn {
	if len(s.Turns) == 0 {
		return nil
	}
	return s.Turns[len(s.Turns)-1]
}

// Suspended returns the request the call waits on — its last suspension,
// when no outcome is recorded — or nil.
func (c *Call) Suspended() *Placed {
	if c.Outcome != nil || len(c.Suspends) == 0 {
		return nil
	}
	return &c.Suspends[len(c.Suspends)-1]
}

// StartsAfter counts the call's attempts begun after position seq.
func (c *Call) StartsAfter(seq int) int {
	n := 0
	for _, s := range c.Starts {
		if s.Seq > seq {
			n++
		}
	}
	return n
}

// Replay reads a run's entries, in the order recorded. Entries that do not
// fit a run (none to start it, an unknown kind, a step of a turn or call
// the run never began) are an error naming the entry: a journal is never
// guessed at.
func Replay(entries []Entry) (*State, error) {
	s := &State{Answers: map[string]Placed{}, Entries: len(entries)}
	turns := map[int]*Turn{}
	for i := range entries {
		e := &entries[i]
		bad := func(why string) error {
			return fmt.Errorf("journal entry %d (%s): %s", i+1, e.Kind, why)
		}
		if e.At > s.LastAt {
			s.LastAt = e.At
		}
		if i == 0 && e.Kind != KindStart {
			return nil, bad("a run's journal must begin with a start entry")
		}
		if e.Kind == KindDecision {
			if len(e.Decision) == 0 {
				return nil, bad("a decision without its entry")
			}
			s.Decisions = append(s.Decisions, e)
			continue
		}
		if s.End != nil {
			return nil, bad("recorded after the run's end")
		}
		switch e.Kind {
		case KindStart:
			if s.Start != nil {
				return nil, bad("a second start")
			}
			s.Start = e
		case KindModel:
			t := turns[e.Turn]
			if t == nil {
				if last := s.Last(); e.Turn != len(s.Turns)+1 || (last != nil && last.Reply == nil) {
					return nil, bad(fmt.Sprintf("turn %d does not follow the run's %d recorded turns", e.Turn, len(s.Turns)))
				}
				t = &Turn{N: e.Turn}
				turns[e.Turn] = t
				s.Turns = append(s.Turns, t)
			}
			t.Attempts++
		case KindTurn:
			t := turns[e.Turn]
			if t == nil || t.Reply != nil {
				return nil, bad(fmt.Sprintf("no model call of turn %d waits for a reply", e.Turn))
			}
			t.Reply = e
			for _, c := range e.Calls {
				t.Calls = append(t.Calls, &Call{ID: c.ID, Name: c.Name})
			}
		case KindCall, KindOutcome, KindSuspend:
			var c *Call
			if e.Turn == 0 && s.Start.Request != nil {
				c = s.haltedCall(e.Call)
			} else {
				c = findCall(turns[e.Turn], e.Call)
			}
			if c == nil {
				return nil, bad(fmt.Sprintf("turn %d has no tool call %q", e.Turn, e.Call))
			}
			if c.Outcome != nil {
				return nil, bad(fmt.Sprintf("tool call %q has its outcome already", e.Call))
			}
			switch e.Kind {
			case KindCall:
				c.Starts = append(c.Starts, Placed{e, i})
			case KindOutcome:
				c.Outcome = e
			case KindSuspend:
				if e.Request == nil || e.Request.ID == "" {
					return nil, bad("a suspension without a request id")
				}
				c.Suspends = append(c.Suspends, Placed{e, i})
			}
		case KindAnswer:
			if e.Answer == nil || e.Answer.ID == "" {
				return nil, bad("an answer without a request id")
			}
			if _, ok := s.Answers[e.Answer.ID]; !ok {
				s.Answers[e.Answer.ID] = Placed{e, i}
			}
		case KindEnd:
			s.End = e
		default:
			return nil, bad("unknown kind")
		}
	}
	return s, nil
}

// haltedCall returns the call id of a resumed run's halted turn, adding
// it on its first entry.
func (s *State) haltedCall(id string) *Call {
	if id == "" {
		return nil
	}
	if s.Halted == nil {
		s.Halted = &Turn{}
	}
	if c := findCall(s.Halted, id); c != nil {
		return c
	}
	c := &Call{ID: id}
	s.Halted.Calls = append(s.Halted.Calls, c)
	return c
}

func findCall(t *Turn, id string) *Call {
	if t == nil {
		return nil
	}
	for _, c := range t.Calls {
		if c.ID == id {
			return c
		}
	}
	return nil
}
