package worker

import (
	"context"
	"encoding/json" // for the RawMessage type only: nothing of the package runs
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/internal/httpx"
)

// ConversationsBinding is the KV namespace binding that, when present,
// keeps the transcripts named by the "conversation" field of /v1/run.
const ConversationsBinding = "CONVERSATIONS_KV"

// Defaults of the conversation store's settings.
const (
	// DefaultConversationBytes caps one stored transcript
	// (MAX_CONVERSATION_BYTES); Workers KV itself allows 25 MiB a value.
	DefaultConversationBytes = 1 << 20
	// DefaultConversationTTL is how long a conversation is kept after its
	// last message (CONVERSATION_TTL_SECONDS).
	DefaultConversationTTL = 30 * 24 * time.Hour
	// KVMinTTL is the shortest expiration Workers KV accepts.
	KVMinTTL = 60 * time.Second
	// kvTimeout bounds one KV call (core.ConversationStore has no context).
	kvTimeout = 10 * time.Second
	// maxConversationID bounds a conversation id.
	maxConversationID = 128
)

// KVNamespace is the part of a Workers KV namespace the conversation store
// uses. On Workers it is the CONVERSATIONS_KV binding (worker/cfworker/kv_js.go); natively
// and in tests it is a MemoryKV.
type KVNamespace interface {
	// Get returns the text stored under key; found is false when there is
	// none.
	Get(ctx context.Context, key string) (value string, found bool, err error)
	// Put stores value under key, to expire after ttl (0: never).
	Put(ctx context.Context, key, value string, ttl time.Duration) error
}

// KVConversationStore is a core.ConversationStore over a KVNamespace: one
// key "conv:<id>" per conversation holding {"v":1,"messages":[…]}, the
// transcript exactly as core produced it.
type KVConversationStore struct {
	NS       KVNamespace
	MaxBytes int           // a larger transcript is refused (ErrConversationTooLarge)
	TTL      time.Duration // expiry after each save; 0 keeps it forever
	Timeout  time.Duration // per KV call; 0 means 10 s
}

// storedConversation is the value of one KV key.
type storedConversation struct {
	V        int               `json:"v"`
	Messages []json.RawMessage `json:"messages"`
}

// ConversationError is a conversation store failure the API reports with
// its own code: conversation_too_large (413), conversation_store (503).
type ConversationError struct {
	Code    string
	Message string
	Err     error
}

func (e *ConversationError) Error() string { return e.Message }
func (e *ConversationError) Unwrap() error { return e.Err }

func (e *ConversationError) status() int {
	if e.Code == "conversation_too_large" {
		return httpx.StatusRequestEntityTooLarge
	}
	return httpx.StatusServiceUnavailable
}

func (s *KVConversationStore) ctx() (context.Context, context.CancelFunc) {
	d := s.Timeout
	if d <= 0 {
		d = kvTimeout
	}
	return context.WithTimeout(context.Background(), d)
}

// Get implements core.ConversationStore: an unknown id has no messages.
func (s *KVConversationStore) Get(id string) ([]any, error) {
	ctx, cancel := s.ctx()
	defer cancel()
	v, found, err := s.NS.Get(ctx, "conv:"+id)
	if err != nil {
		return nil, &ConversationError{Code: "conversation_store", Message: "could not read the conversation from " + ConversationsBinding, Err: fmt.Errorf("kv get: %w", err)}
	}
	if !found {
		return nil, nil
	}
	sc, err := decodeStoredConversation([]byte(v))
	if err != nil || sc.V != 1 {
		if err == nil {
			err = fmt.Errorf("version %d", sc.V)
		}
		return nil, &ConversationError{Code: "conversation_store", Message: "the stored conversation is unreadable", Err: fmt.Errorf("decode conversation: %w", err)}
	}
	out := make([]any, len(sc.Messages))
	for i, m := range sc.Messages {
		out[i] = m
	}
	return out, nil
}

// Save implements core.ConversationStore.
func (s *KVConversationStore) Save(id string, messages []any) error {
	if messages == nil {
		messages = []any{}
	}
	b, err := marshalJSON(map[string]any{"v": 1, "messages": messages})
	if err != nil {
		return &ConversationError{Code: "conversation_store", Message: "could not encode the conversation", Err: fmt.Errorf("encode conversation: %w", err)}
	}
	if s.MaxBytes > 0 && len(b) > s.MaxBytes {
		return &ConversationError{Code: "conversation_too_large", Message: fmt.Sprintf("the conversation would be %d bytes, over the %d-byte cap (MAX_CONVERSATION_BYTES); it was not saved: start a new conversation", len(b), s.MaxBytes)}
	}
	ttl := s.TTL
	if ttl > 0 && ttl < KVMinTTL {
		ttl = KVMinTTL
	}
	ctx, cancel := s.ctx()
	defer cancel()
	if err := s.NS.Put(ctx, "conv:"+id, string(b), ttl); err != nil {
		return &ConversationError{Code: "conversation_store", Message: "could not save the conversation to " + ConversationsBinding, Err: fmt.Errorf("kv put: %w", err)}
	}
	return nil
}

// MemoryKV is a KVNamespace in process memory, for native runs and tests.
type MemoryKV struct {
	mu  sync.Mutex
	m   map[string]memoryKVEntry
	now func() time.Time
}

type memoryKVEntry struct {
	value   string
	expires time.Time
}

// NewMemoryKV returns an empty MemoryKV.
func NewMemoryKV() *MemoryKV { return &MemoryKV{m: map[string]memoryKVEntry{}, now: time.Now} }

// Get implements KVNamespace.
func (k *MemoryKV) Get(_ context.Context, key string) (string, bool, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	e, ok := k.m[key]
	if ok && !e.expires.IsZero() && k.now().After(e.expires) {
		delete(k.m, key)
		ok = false
	}
	return e.value, ok, nil
}

// Put implements KVNamespace.
func (k *MemoryKV) Put(_ context.Context, key, value string, ttl time.Duration) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	e := memoryKVEntry{value: value}
	if ttl > 0 {
		e.expires = k.now().Add(ttl)
	}
	k.m[key] = e
	return nil
}

// conversationStore returns the store over the bound namespace, or nil (a
// nil interface) when none is bound. Settings that do not parse fall back
// to their defaults; serveConversation reports them first.
func (h *Handler) conversationStore() core.ConversationStore {
	s, err := h.kvConversationStore()
	if s == nil || err != nil {
		return nil
	}
	return s
}

// kvConversationStore reads MAX_CONVERSATION_BYTES and
// CONVERSATION_TTL_SECONDS; it returns nil when no namespace is bound.
func (h *Handler) kvConversationStore() (*KVConversationStore, error) {
	ns := h.opts.Conversations()
	if ns == nil {
		return nil, nil
	}
	maxBytes, ttl, err := conversationSettings(h.opts.Getenv)
	if err != nil {
		return nil, err
	}
	return &KVConversationStore{NS: ns, MaxBytes: maxBytes, TTL: ttl}, nil
}

// conversationSettings reads MAX_CONVERSATION_BYTES and
// CONVERSATION_TTL_SECONDS (their defaults when unset); the error is a
// ConfigErrors naming each one that does not parse.
func conversationSettings(getenv func(string) string) (maxBytes int, ttl time.Duration, err error) {
	maxBytes, ttl = DefaultConversationBytes, DefaultConversationTTL
	var problems ConfigErrors
	if v := strings.TrimSpace(getenv("MAX_CONVERSATION_BYTES")); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1024 {
			problems.add(&ConfigError{Setting: "MAX_CONVERSATION_BYTES", Problem: "must be a whole number of bytes, at least 1024"})
		}
		maxBytes = n
	}
	if v := strings.TrimSpace(getenv("CONVERSATION_TTL_SECONDS")); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			problems.add(&ConfigError{Setting: "CONVERSATION_TTL_SECONDS", Problem: "must be a whole number of seconds (0 keeps conversations forever)"})
		}
		ttl = time.Duration(n) * time.Second
	}
	return maxBytes, ttl, problems.err()
}

// validConversationID accepts 1–128 characters of A–Z a–z 0–9 . _ : -.
func validConversationID(id string) bool {
	return validName(id, maxConversationID, "._:-")
}

// validName reports whether id is 1–max characters of ASCII letters, digits
// and the bytes of extra.
func validName(id string, max int, extra string) bool {
	if id == "" || len(id) > max {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte(extra, c) >= 0) {
			return false
		}
	}
	return true
}

// conversationSaver validates the "conversation" of /v1/resume: it returns
// a function that saves the resumed run's transcript under that id (nil
// when the field is empty), or answers 400 / 500 and false.
func (h *Handler) conversationSaver(w httpx.ResponseWriter, id string) (func(core.RunResult, error) error, bool) {
	if id == "" {
		return nil, true
	}
	if !validConversationID(id) {
		writeError(w, httpx.StatusBadRequest, "invalid_field", `"conversation" must be 1-128 characters of A-Z, a-z, 0-9, ".", "_", ":" or "-"`)
		return nil, false
	}
	store, err := h.kvConversationStore()
	if err != nil {
		h.WriteConfigError(w, err)
		return nil, false
	}
	if store == nil {
		writeError(w, httpx.StatusBadRequest, "conversations_unavailable", `"conversation" needs a KV namespace bound as `+ConversationsBinding)
		return nil, false
	}
	return func(res core.RunResult, runErr error) error {
		// As core's Ask: keep what completed, even after a failure part way;
		// a failure before anything ran saves nothing.
		if runErr != nil && res.Turns == 0 && res.ToolCallCount == 0 {
			return nil
		}
		return store.Save(id, res.Messages)
	}, true
}

// saveAfter runs save (when set) on a finished run; a save error replaces
// a successful result's nil error.
func saveAfter(save func(core.RunResult, error) error, res core.RunResult, runErr error) error {
	if save == nil {
		return runErr
	}
	if err := save(res, runErr); err != nil && runErr == nil {
		return err
	}
	return runErr
}

// serveConversation answers POST /v1/run with "conversation": the
// transcript comes from CONVERSATIONS_KV and the run's transcript is saved
// back (core's Client.Ask), also when the run halts pending.
func (h *Handler) serveConversation(w httpx.ResponseWriter, r *httpx.Request, cfg Config, req RunRequest) {
	switch {
	case !validConversationID(req.Conversation):
		writeError(w, httpx.StatusBadRequest, "invalid_field", `"conversation" must be 1-128 characters of A-Z, a-z, 0-9, ".", "_", ":" or "-"`)
		return
	case len(req.Messages) > 0:
		writeError(w, httpx.StatusBadRequest, "invalid_field", `send either "conversation" (the history is stored) or "messages", not both`)
		return
	}
	store, err := h.kvConversationStore()
	if err != nil {
		h.WriteConfigError(w, err)
		return
	}
	if store == nil {
		writeError(w, httpx.StatusBadRequest, "conversations_unavailable", `"conversation" needs a KV namespace bound as `+ConversationsBinding+`; without it, send the history as "messages"`)
		return
	}
	id := req.Conversation
	if !req.Stream {
		h.RunAgent(r.Context(), w, cfg, "run", req.Workspace, func(c *core.Client, tk *core.Toolkit) (core.RunResult, error) {
			return c.Ask(r.Context(), req.Prompt, tk, id)
		})
		return
	}
	// Streamed: core has no streaming Ask, so load and save around the
	// stream the way Ask does.
	history, err := store.Get(id)
	if err != nil {
		status, body := h.RunErrorBody(cfg, core.RunResult{}, err)
		writeJSON(w, status, body)
		return
	}
	start := func(ctx context.Context, c *core.Client, tk *core.Toolkit) (<-chan core.StreamEvent, error) {
		return c.StreamWithHistory(ctx, req.Prompt, tk, history)
	}
	save := func(res core.RunResult, runErr error) error {
		if runErr != nil && res.Turns == 0 && res.ToolCallCount == 0 {
			return nil
		}
		return store.Save(id, res.Messages)
	}
	h.RunAgent(r.Context(), w, cfg, "run", req.Workspace, h.streamStep(w, r, cfg, "run", req.Workspace, start, save))
}
