package worker

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json" // for the RawMessage type only: nothing of the package runs
	"fmt"
	"strings"
	"time"

	"github.com/toolnexus/wasm/core"
)

// strictB64 refuses non-zero padding bits, so that no two token strings
// carry the same bytes.
var strictB64 = base64.RawURLEncoding.Strict()

// stateVersion prefixes every sealed token. A new token layout gets a new
// prefix, so that old tokens are refused by name instead of misread.
const stateVersion = "tn1"

// State is a halted run as it travels to the caller and back: the
// transcript up to the halt, the request the caller must answer, the wire
// format the transcript is in, a unique id and the sealing and expiry times.
type State struct {
	ID        string `json:"id"`
	IssuedAt  int64  `json:"iat"`
	ExpiresAt int64  `json:"exp"`
	Style     string `json:"style"`
	// Workspace names the files the run's built-ins work on ("" is the
	// default workspace), so that a resumed run writes where it read.
	Workspace string `json:"ws,omitempty"`
	// Agent names the declared agent (AGENTS) whose team halted: the run's
	// tree is then kept in the TreeStore under ID, and Messages is empty.
	Agent    string            `json:"agent,omitempty"`
	Pending  core.Request      `json:"pending"`
	Messages []json.RawMessage `json:"messages"`
}

// History returns the transcript in the form core's RunWithAnswer takes.
func (s State) History() []any {
	h := make([]any, len(s.Messages))
	for i, m := range s.Messages {
		h[i] = m
	}
	return h
}

// StateError is why a token was refused. Code is stable for clients;
// Message is for people and never contains token contents.
type StateError struct {
	Code    string
	Message string
}

func (e *StateError) Error() string { return e.Message }

// The ways a token is refused.
var (
	errStateMalformed = &StateError{"state_malformed", "state token is malformed"}
	errStateVersion   = &StateError{"state_version", "state token version is not supported (want " + stateVersion + ")"}
	errStateForged    = &StateError{"state_invalid", "state token is not authentic: it was edited or sealed with another STATE_SECRET"}
	errStateExpired   = &StateError{"state_expired", "state token has expired; start a new run"}
	errStateStyle     = &StateError{"state_mismatch", "state token holds a transcript in another LLM_STYLE than this Worker speaks"}
)

// Sealer seals and opens state tokens with HMAC-SHA256 under a key derived
// from STATE_SECRET. A token is
//
//	tn1.<base64url(JSON State)>.<base64url(HMAC-SHA256(key, "tn1.<payload>"))>
//
// It is signed, not encrypted: the caller can read the transcript (it
// already received it as "messages") but cannot change a byte of it.
type Sealer struct {
	key []byte
	now func() time.Time
}

// NewSealer derives the signing key from secret, so that the same secret
// used elsewhere never signs tokens directly.
func NewSealer(secret string, now func() time.Time) *Sealer {
	if now == nil {
		now = time.Now
	}
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte("toolnexus-wasm worker state token " + stateVersion))
	return &Sealer{key: m.Sum(nil), now: now}
}

// Seal stores a halted run (its transcript in the given wire style) for ttl
// and returns the token and the sealed State, with its new id and times.
func (s *Sealer) Seal(style, workspace string, pending core.Request, messages []any, ttl time.Duration) (string, State, error) {
	return s.seal(State{Style: style, Workspace: workspace, Pending: pending}, messages, ttl)
}

// SealTree seals a halted agent team's token: it names the agent and
// carries no transcript (the tree goes to a TreeStore under the returned
// State's ID, which the caller stores before handing the token out).
func (s *Sealer) SealTree(style, workspace, agent string, pending core.Request, ttl time.Duration) (string, State, error) {
	return s.seal(State{Style: style, Workspace: workspace, Agent: agent, Pending: pending}, nil, ttl)
}

// seal gives st a new id and its times, and seals it with messages.
func (s *Sealer) seal(st State, messages []any, ttl time.Duration) (string, State, error) {
	id, err := newStateID()
	if err != nil {
		return "", State{}, err
	}
	now := s.now()
	st.ID, st.IssuedAt, st.ExpiresAt = id, now.Unix(), now.Add(ttl).Unix()
	st.Messages = make([]json.RawMessage, len(messages))
	for i, m := range messages {
		raw, ok := m.(json.RawMessage)
		if !ok {
			if raw, err = marshalJSON(m); err != nil {
				return "", State{}, fmt.Errorf("seal state: message %d: %w", i, err)
			}
		}
		st.Messages[i] = raw
	}
	payload, err := marshalJSON(st)
	if err != nil {
		return "", State{}, fmt.Errorf("seal state: %w", err)
	}
	signed := stateVersion + "." + base64.RawURLEncoding.EncodeToString(payload)
	return signed + "." + base64.RawURLEncoding.EncodeToString(s.mac(signed)), st, nil
}

// Open checks a token sealed for a transcript in the given wire style and
// returns its State. The error is a *StateError. Authenticity is checked
// before anything in the payload is parsed.
func (s *Sealer) Open(style, token string) (State, error) {
	parts := strings.Split(strings.TrimSpace(token), ".")
	if len(parts) != 3 {
		return State{}, errStateMalformed
	}
	if parts[0] != stateVersion {
		return State{}, errStateVersion
	}
	sig, err := strictB64.DecodeString(parts[2])
	if err != nil {
		return State{}, errStateMalformed
	}
	if !hmac.Equal(sig, s.mac(parts[0]+"."+parts[1])) {
		return State{}, errStateForged
	}
	payload, err := strictB64.DecodeString(parts[1])
	if err != nil {
		return State{}, errStateMalformed
	}
	st, err := decodeState(payload)
	if err != nil || st.ID == "" || st.Pending.ID == "" {
		return State{}, errStateMalformed
	}
	if s.now().Unix() >= st.ExpiresAt {
		return State{}, errStateExpired
	}
	if st.Style != style {
		return State{}, errStateStyle
	}
	return st, nil
}

func (s *Sealer) mac(signed string) []byte {
	m := hmac.New(sha256.New, s.key)
	m.Write([]byte(signed))
	return m.Sum(nil)
}

// newStateID returns 128 random bits as hex.
func newStateID() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("state id: %w", err)
	}
	return "st_" + hex.EncodeToString(b[:]), nil
}
