package core

import (
	"context"
	fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx
	"sync"

	"github.com/toolnexus/wasm/core/approval"
)

// ConversationStore keeps transcripts by conversation id for Ask. Get of an
// unknown id returns no messages and no error.
type ConversationStore interface {
	Get(id string) ([]any, error)
	Save(id string, messages []any) error
}

// MemoryStore is the default ConversationStore: a map guarded by a mutex.
type MemoryStore struct {
	mu    sync.Mutex
	convs map[string][]any
}

// NewMemoryStore returns an empty in-memory store.
func NewMemoryStore() *MemoryStore { return &MemoryStore{convs: map[string][]any{}} }

// Get returns a copy of the conversation's messages.
func (s *MemoryStore) Get(id string) ([]any, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]any(nil), s.convs[id]...), nil
}

// Save replaces the conversation's messages.
func (s *MemoryStore) Save(id string, messages []any) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.convs[id] = append([]any(nil), messages...)
	return nil
}

// Ask is Run against a stored conversation: it loads the transcript for id,
// runs prompt on top of it and saves the result's transcript back, also when
// the run halts pending (resume it with AskWithAnswer). An empty id is a
// stateless one-shot, exactly Run, and the store is not touched (as in the
// Go port).
func (c *Client) Ask(ctx context.Context, prompt string, tk *Toolkit, id string) (RunResult, error) {
	ctx = approval.WithConversation(ctx, id) // its grants live in the conversation
	if id == "" {
		return c.Run(ctx, prompt, tk)
	}
	history, err := c.opts.Store.Get(id)
	if err != nil {
		return RunResult{}, fmt.Errorf("core: load conversation %q: %w", id, err)
	}
	res, err := c.RunWithHistory(ctx, prompt, tk, history)
	return c.saveConversation(id, res, err)
}

// AskWithAnswer resumes a stored conversation that halted pending.
func (c *Client) AskWithAnswer(ctx context.Context, tk *Toolkit, id string, pending Request, answer Answer) (RunResult, error) {
	ctx = approval.WithConversation(ctx, id) // its grants live in the conversation
	if id == "" {
		return RunResult{}, fmt.Errorf("core: AskWithAnswer needs a conversation id")
	}
	history, err := c.opts.Store.Get(id)
	if err != nil {
		return RunResult{}, fmt.Errorf("core: load conversation %q: %w", id, err)
	}
	res, err := c.RunWithAnswer(ctx, tk, history, pending, answer)
	return c.saveConversation(id, res, err)
}

// saveConversation keeps what a run completed, even when it failed part way,
// so nothing already said is lost; a failed resume (nothing ran) saves
// nothing.
func (c *Client) saveConversation(id string, res RunResult, runErr error) (RunResult, error) {
	if runErr != nil && res.Turns == 0 && res.ToolCallCount == 0 {
		return res, runErr
	}
	if err := c.opts.Store.Save(id, res.Messages); err != nil && runErr == nil {
		return res, fmt.Errorf("core: save conversation %q: %w", id, err)
	}
	return res, runErr
}

// Conversation is a client and toolkit bound to a conversation, kept two
// ways. Send (the Go port's API) keeps the transcript in the exported
// Messages field, in memory; Reset clears it. Ask and AskWithAnswer keep it
// in the client's ConversationStore under ID; Stored reads it back. The two
// do not share a transcript.
type Conversation struct {
	ID string
	// Messages is the running transcript of Send (system prompt not
	// included: core sends it on every request).
	Messages []any
	client   *Client
	tk       *Toolkit
}

// Conversation starts a new conversation with a fresh id in the client's store.
func (c *Client) Conversation(tk *Toolkit) *Conversation {
	return &Conversation{ID: newID("conv_"), client: c, tk: tk}
}

// Ask sends prompt in this conversation.
func (cv *Conversation) Ask(ctx context.Context, prompt string) (RunResult, error) {
	return cv.client.Ask(ctx, prompt, cv.tk, cv.ID)
}

// AskWithAnswer resumes this conversation after a pending halt.
func (cv *Conversation) AskWithAnswer(ctx context.Context, pending Request, answer Answer) (RunResult, error) {
	return cv.client.AskWithAnswer(ctx, cv.tk, cv.ID, pending, answer)
}

// Stored returns the transcript the store keeps under ID (what Ask built).
func (cv *Conversation) Stored() ([]any, error) { return cv.client.opts.Store.Get(cv.ID) }

// Send sends the next user turn on top of Messages and, when the run
// succeeds, makes its transcript the new Messages.
func (cv *Conversation) Send(ctx context.Context, prompt string) (RunResult, error) {
	res, err := cv.client.RunWithHistory(ctx, prompt, cv.tk, cv.Messages)
	if err != nil {
		return res, err
	}
	cv.Messages = res.Messages
	return res, nil
}

// Reset forgets the transcript Send keeps.
func (cv *Conversation) Reset() { cv.Messages = nil }
