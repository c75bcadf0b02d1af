package core

import (
	"encoding/json"
	fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx

	"github.com/tidwall/gjson"
	"github.com/toolnexus/wasm/internal/jsonx"
)

// transcript holds the messages of a run as encoded JSON, plus the same
// messages already joined with commas: each turn's request body copies the
// joined bytes instead of encoding the history again.
type transcript struct {
	msgs   []json.RawMessage
	joined []byte
}

func (t *transcript) add(m json.RawMessage) {
	if len(t.msgs) > 0 {
		t.joined = append(t.joined, ',')
	}
	t.joined = append(t.joined, m...)
	t.msgs = append(t.msgs, m)
}

// reserve sizes joined for msgs and a run's worth of turns after them, so
// that a long history is not copied again as the run appends to it.
func (t *transcript) reserve(msgs []json.RawMessage) {
	n := 0
	for _, m := range msgs {
		n += len(m) + 1
	}
	if n > 0 {
		t.joined = make([]byte, 0, n+n/8+4096)
	}
}

// truncate keeps the first n messages.
func (t *transcript) truncate(n int) {
	msgs := t.msgs[:n]
	t.msgs, t.joined = nil, t.joined[:0]
	for _, m := range msgs {
		t.add(m)
	}
}

// setLast replaces the last message.
func (t *transcript) setLast(m json.RawMessage) {
	n := len(t.msgs) - 1
	t.joined = append(t.joined[:len(t.joined)-len(t.msgs[n])], m...)
	t.msgs[n] = m
}

// asAny returns the messages as RunResult.Messages elements.
func (t *transcript) asAny() []any {
	out := make([]any, len(t.msgs))
	for i, m := range t.msgs {
		out[i] = m
	}
	return out
}

// encodeHistory turns caller-supplied history into encoded messages. Raw
// JSON (json.RawMessage, []byte) is checked and kept as it is; anything else
// is encoded once.
func encodeHistory(history []any) ([]json.RawMessage, error) {
	out := make([]json.RawMessage, 0, len(history))
	for i, h := range history {
		var raw []byte
		checked := false
		switch v := h.(type) {
		case jsonx.Checked:
			// Valid and within the depth limit already (the JS bridge
			// checked the whole history): only the shape is left.
			raw, checked = v, true
		case json.RawMessage:
			raw = v
		case []byte:
			raw = v
		default:
			b, err := jsonx.Marshal(v)
			if err != nil {
				return nil, fmt.Errorf("core: history[%d]: %w", i, err)
			}
			raw = b
		}
		// A message may wrap tool arguments accepted at MaxJSONDepth (an
		// Anthropic tool_use block), hence the slack.
		if !checked {
			if err := jsonx.CheckDepth(raw, jsonx.MaxDepth+jsonx.WrapSlack); err != nil {
				return nil, err
			}
		}
		if len(raw) == 0 || raw[0] != '{' || (!checked && !gjson.ValidBytes(raw)) {
			return nil, fmt.Errorf("core: history[%d] is not a JSON object", i)
		}
		out = append(out, json.RawMessage(raw))
	}
	return out, nil
}
