package agents

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/internal/jsonx"
)

// portStore sits between the kernel and the store a port user reads. The
// kernel keeps a transcript as JSON messages without the system prompt
// (core sends it apart); the port stores decoded maps with the agent's
// soul first (OpenAI style). Save converts to the port's shape, Get back.
type portStore struct {
	inner    core.ConversationStore
	soulOf   func(handleID string) string
	soulLead bool // the wire format carries the soul as the first message
}

func (s portStore) Save(id string, msgs []any) error {
	out := make([]any, 0, len(msgs)+1)
	if soul := s.soulOf(id); s.soulLead && soul != "" {
		out = append(out, map[string]any{"role": "system", "content": soul})
	}
	for _, m := range msgs {
		raw, ok := m.(json.RawMessage)
		if !ok {
			out = append(out, m)
			continue
		}
		v, err := jsonx.DecodeObject(raw)
		if err != nil {
			return fmt.Errorf("agents: store %s: %w", id, err)
		}
		out = append(out, v)
	}
	return s.inner.Save(id, out)
}

func (s portStore) Get(id string) ([]any, error) {
	msgs, err := s.inner.Get(id)
	if err != nil || len(msgs) == 0 {
		return msgs, err
	}
	// The kernel adds the soul itself: drop the copy Save put first.
	if first, ok := msgs[0].(map[string]any); ok && first["role"] == "system" {
		if soul := s.soulOf(id); soul != "" && first["content"] == soul {
			return msgs[1:], nil
		}
	}
	return msgs, nil
}

// soulFinder maps a handle id ("root/coder.1/explore.2") to its agent's
// soul through the registry.
func soulFinder(reg map[string]Def) func(string) string {
	return func(id string) string {
		seg := id[strings.LastIndex(id, "/")+1:]
		if i := strings.LastIndex(seg, "."); i > 0 {
			seg = seg[:i]
		}
		return reg[seg].Soul
	}
}
