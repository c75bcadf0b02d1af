package core

import (
	"context"
	fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx
)

// ConversationStore returns the store Ask uses: ClientOptions.Store, or the
// in-memory one the client made.
func (c *Client) ConversationStore() ConversationStore { return c.opts.Store }

// StreamWithID is Stream against a stored conversation: it loads id's
// transcript before the run and saves the result's transcript when the run
// ends (also pending, as Ask does). An empty id is Stream, and the store
// is not touched.
func (c *Client) StreamWithID(ctx context.Context, prompt string, tk *Toolkit, id string) (<-chan StreamEvent, error) {
	ctx = orBackground(ctx)
	if id == "" {
		return c.Stream(ctx, prompt, tk)
	}
	history, err := c.opts.Store.Get(id)
	if err != nil {
		return nil, fmt.Errorf("core: load conversation %q: %w", id, err)
	}
	inner, err := c.StreamWithHistory(ctx, prompt, tk, history)
	if err != nil {
		return nil, err
	}
	out := make(chan StreamEvent, cap(inner))
	go func() {
		defer close(out)
		for e := range inner {
			if (e.Type == EventDone || e.Type == EventError) && e.Result != nil {
				var err error
				*e.Result, err = c.saveConversation(id, *e.Result, e.Err)
				if err != nil {
					e.Type, e.Err = EventError, err
				}
			}
			select {
			case out <- e:
			case <-ctx.Done():
				// The reader may be gone: keep draining so the run ends,
				// leaving the last event in the buffer if there is room.
				select {
				case out <- e:
				default:
				}
			}
		}
	}()
	return out, nil
}

// AskStream is Ask that hands each text delta to onText as the model
// streams it, and still returns the final result. A nil onText makes it
// exactly Ask.
func (c *Client) AskStream(ctx context.Context, prompt string, tk *Toolkit, id string, onText func(delta string)) (RunResult, error) {
	if onText == nil {
		return c.Ask(ctx, prompt, tk, id)
	}
	events, err := c.StreamWithID(ctx, prompt, tk, id)
	if err != nil {
		return RunResult{}, err
	}
	var res RunResult
	var runErr error
	for e := range events {
		switch e.Type {
		case EventText:
			onText(e.Delta)
		case EventDone, EventError:
			if e.Result != nil {
				res = *e.Result
			}
			runErr = e.Err
		}
	}
	return res, runErr
}
