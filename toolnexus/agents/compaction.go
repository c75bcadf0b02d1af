package agents

import (
	"context"

	coreagents "github.com/toolnexus/wasm/core/agents"
	tn "github.com/toolnexus/wasm/toolnexus"
)

// EstimateTokens is the default token estimate of a transcript: each
// message's JSON length over four, rounded up, summed.
func EstimateTokens(messages []any) int { return coreagents.EstimateTokens(messages) }

// CompactorOptions configures Compactor.
type CompactorOptions struct {
	// MaxTokens: compact only when the estimate exceeds it.
	MaxTokens int
	// KeepTail is how many tokens of recent messages to keep (default
	// MaxTokens/2).
	KeepTail int
	// Summarize condenses the older messages (it may call a model).
	// Required.
	Summarize func(older []any) (string, error)
	// CountTokens replaces EstimateTokens.
	CountTokens func(messages []any) int
	// FlushToMemory adds a reminder, before the summary takes effect, to
	// save what matters with the memory tool.
	FlushToMemory bool
}

// Compaction messages (system messages, like the soul they follow).
const (
	summaryHeading = "[Summary of earlier conversation]\n"
	flushReminder  = "Before you go on: the earlier conversation is about to be summarized; if anything in it is worth keeping, save it with the memory tool now."
)

// Compactor is a BeforeLLM hook (Spec.Hooks or Options.Hooks) that keeps
// a transcript under MaxTokens. Under it, the hook returns no override,
// so the run is as without it. Over it, the messages before the kept tail
// become one summary: [leading system prompt, summary, (reminder), tail…].
// The tail starts at a user turn that is not a tool result, so no tool
// result loses the call it answers; with no such turn the whole body is
// summarized and the tail is empty.
func Compactor(opts CompactorOptions) func(context.Context, tn.BeforeLLMEvent) (*tn.LLMOverride, error) {
	count := opts.CountTokens
	if count == nil {
		count = EstimateTokens
	}
	keep := opts.KeepTail
	if keep == 0 {
		keep = opts.MaxTokens / 2
	}
	return func(_ context.Context, ev tn.BeforeLLMEvent) (*tn.LLMOverride, error) {
		msgs := ev.Messages
		if opts.Summarize == nil || count(msgs) <= opts.MaxTokens {
			return nil, nil
		}
		start := 0 // the leading system prompt is kept as it is
		if len(msgs) > 0 && roleOf(msgs[0]) == "system" {
			start = 1
		}
		split := tailStart(msgs, start, keep, count)
		if split <= start {
			return nil, nil
		}
		summary, err := opts.Summarize(msgs[start:split])
		if err != nil {
			return nil, err
		}
		out := append([]any(nil), msgs[:start]...)
		out = append(out, map[string]any{"role": "system", "content": summaryHeading + summary})
		if opts.FlushToMemory {
			out = append(out, map[string]any{"role": "system", "content": flushReminder})
		}
		out = append(out, msgs[split:]...)
		return &tn.LLMOverride{Messages: out}, nil
	}
}

// tailStart is where the kept tail begins: the earliest boundary whose
// tail fits keep tokens; else the latest boundary (safety over size);
// else len(msgs), an empty tail.
func tailStart(msgs []any, start, keep int, count func([]any) int) int {
	split := len(msgs)
	for i := len(msgs) - 1; i > start && count(msgs[i:]) <= keep; i-- {
		if isBoundary(msgs[i]) {
			split = i
		}
	}
	if split < len(msgs) {
		return split
	}
	for i := len(msgs) - 1; i > start; i-- {
		if isBoundary(msgs[i]) {
			return i
		}
	}
	return len(msgs)
}

// isBoundary reports whether m may open the kept tail: a user message
// that does not carry tool results (Anthropic sends those as user
// messages with tool_result blocks).
func isBoundary(m any) bool {
	if roleOf(m) != "user" {
		return false
	}
	mm, _ := m.(map[string]any)
	blocks, _ := mm["content"].([]any)
	for _, b := range blocks {
		if bm, ok := b.(map[string]any); ok && bm["type"] == "tool_result" {
			return false
		}
	}
	return true
}

// roleOf is a message's role ("" when it has none).
func roleOf(m any) string {
	switch v := m.(type) {
	case map[string]any:
		r, _ := v["role"].(string)
		return r
	case map[string]string:
		return v["role"]
	}
	return ""
}
