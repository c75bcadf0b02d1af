package agents

import (
	"encoding/json"
	fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx

	"github.com/tidwall/gjson"
	"github.com/toolnexus/wasm/internal/jsonx"
)

// EstimateTokens is the default token estimate of a transcript: for each
// message, its JSON length divided by four, rounded up. It is an estimate,
// not a tokenizer (CompactorOptions.CountTokens replaces it).
func EstimateTokens(messages []any) int {
	n := 0
	for _, m := range messages {
		n += (len(messageJSON(m)) + 3) / 4
	}
	return n
}

// messageJSON is a transcript message as JSON (core keeps them as
// json.RawMessage; anything else is encoded).
func messageJSON(m any) []byte {
	switch v := m.(type) {
	case json.RawMessage:
		return v
	case []byte:
		return v
	}
	b, _ := jsonx.Marshal(m)
	return b
}

// CompactorOptions configures Compactor.
type CompactorOptions struct {
	// MaxTokens: compact only when the transcript's estimate exceeds it.
	MaxTokens int
	// KeepTail is how many tokens of the most recent messages to keep
	// verbatim (default MaxTokens/2).
	KeepTail int
	// Summarize condenses the older messages; it may call a model. Required.
	Summarize func(older []any) (string, error)
	// CountTokens replaces EstimateTokens.
	CountTokens func(messages []any) int
}

// Compactor returns a Spec.Compact function: while the transcript is
// within MaxTokens it is returned unchanged; beyond, the older part is
// replaced by one summary message and the recent tail is kept verbatim.
// The tail always starts at a user turn that is not a tool result, so a
// tool result never loses the assistant message that called it.
func Compactor(opts CompactorOptions) func(history []any) ([]any, error) {
	count := opts.CountTokens
	if count == nil {
		count = EstimateTokens
	}
	keep := opts.KeepTail
	if keep <= 0 {
		keep = opts.MaxTokens / 2
	}
	return func(msgs []any) ([]any, error) {
		if opts.Summarize == nil || count(msgs) <= opts.MaxTokens {
			return msgs, nil
		}
		split := -1
		for i := len(msgs) - 1; i > 0; i-- {
			if count(msgs[i:]) > keep {
				break
			}
			if isUserTurn(msgs[i]) {
				split = i
			}
		}
		if split < 0 { // no boundary fits: keep from the last user turn (safety over size)
			for i := len(msgs) - 1; i > 0 && split < 0; i-- {
				if isUserTurn(msgs[i]) {
					split = i
				}
			}
		}
		if split <= 0 {
			return msgs, nil
		}
		summary, err := opts.Summarize(msgs[:split])
		if err != nil {
			return nil, fmt.Errorf("agents: summarize: %w", err)
		}
		note, err := jsonx.Marshal(map[string]any{"role": "user", "content": "[Summary of the earlier conversation]\n" + summary})
		if err != nil {
			return nil, fmt.Errorf("agents: summary message: %w", err)
		}
		out := make([]any, 0, len(msgs)-split+1)
		out = append(out, json.RawMessage(note))
		return append(out, msgs[split:]...), nil
	}
}

// isUserTurn reports whether m is a user message that is not a tool
// result, in either wire format (Anthropic carries tool results as user
// messages with tool_result blocks).
func isUserTurn(m any) bool {
	doc := gjson.ParseBytes(messageJSON(m))
	if doc.Get("role").String() != "user" {
		return false
	}
	blocks := doc.Get("content")
	if !blocks.IsArray() {
		return true
	}
	plain := true
	blocks.ForEach(func(_, b gjson.Result) bool {
		plain = b.Get("type").String() != "tool_result"
		return plain
	})
	return plain
}
