package approval

import (
	"sync"

	"github.com/toolnexus/wasm/internal/jsonx"
)

// The scopes of a grant (Answer.Data["grant"]): what later calls of the
// approved call's tool it approves, in the same conversation.
const (
	GrantArgs = "args" // calls with exactly the arguments approved
	GrantAny  = "any"  // calls with any arguments
)

// GrantKey is the Answer.Data key that asks for a grant with an approval.
const GrantKey = "grant"

// maxGrants bounds one conversation's grants; the oldest goes first.
const maxGrants = 100

// Grant is "allow for this conversation": a person's approval of a call
// that also approves later calls of its tool in the same conversation.
type Grant struct {
	// ID is the id of the request whose approval gave it: the record's
	// entries of the calls it approves name it.
	ID           string
	Conversation string
	Tool         string
	// Scope is GrantArgs or GrantAny; Args, for GrantArgs, the approved
	// arguments as canonical JSON (CanonicalArgs).
	Scope string
	Args  string
	// Approver is who gave it.
	Approver string
}

// CanonicalArgs is arguments as JSON with sorted keys: two argument maps
// with the same content have the same text.
func CanonicalArgs(args map[string]any) string {
	if args == nil {
		args = map[string]any{}
	}
	b, err := jsonx.Marshal(args)
	if err != nil {
		return ""
	}
	return string(b)
}

// Grants keeps the grants of every conversation of a toolkit. It is safe
// for concurrent use; the zero value is ready.
type Grants struct {
	mu     sync.Mutex
	byConv map[string][]Grant
}

// Add keeps g for its conversation.
func (s *Grants) Add(g Grant) {
	if g.Conversation == "" || g.ID == "" {
		return
	}
	s.mu.Lock()
	if s.byConv == nil {
		s.byConv = map[string][]Grant{}
	}
	list := s.byConv[g.Conversation]
	for _, have := range list {
		if have.ID == g.ID {
			s.mu.Unlock()
			return
		}
	}
	if len(list) >= maxGrants {
		list = list[1:]
	}
	s.byConv[g.Conversation] = append(list, g)
	s.mu.Unlock()
}

// Match returns the grant of conversation conv that approves a call of
// tool with args (canonical JSON), if one does.
func (s *Grants) Match(conv, tool, args string) (Grant, bool) {
	if s == nil || conv == "" {
		return Grant{}, false
	}
	s.mu.Lock()
	found, ok := Grant{}, false
	for _, g := range s.byConv[conv] {
		if g.Tool == tool && (g.Scope == GrantAny || g.Args == args) {
			found, ok = g, true
			break
		}
	}
	s.mu.Unlock()
	return found, ok
}

// Revoke removes the grant id of conversation conv and returns it.
func (s *Grants) Revoke(conv, id string) (Grant, bool) {
	if s == nil {
		return Grant{}, false
	}
	s.mu.Lock()
	found, ok := Grant{}, false
	list := s.byConv[conv]
	for i, g := range list {
		if g.ID == id {
			s.byConv[conv] = append(list[:i:i], list[i+1:]...)
			found, ok = g, true
			break
		}
	}
	s.mu.Unlock()
	return found, ok
}

// List returns conversation conv's grants, oldest first.
func (s *Grants) List(conv string) []Grant {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	out := append([]Grant(nil), s.byConv[conv]...)
	s.mu.Unlock()
	return out
}

// Forget drops every grant of conversation conv (it ended).
func (s *Grants) Forget(conv string) {
	if s == nil {
		return
	}
	s.mu.Lock()
	delete(s.byConv, conv)
	s.mu.Unlock()
}

// decodeArgs reads arguments kept as JSON text (nil or empty: none).
func decodeArgs(b []byte) (map[string]any, error) {
	if len(b) == 0 {
		return map[string]any{}, nil
	}
	return jsonx.DecodeObject(b)
}
