package core

import (
	"context"
	"fmt"
	"strings"

	"github.com/tidwall/gjson"
)

// elicit maps an elicitation/create request onto the toolkit's WaitFor and
// returns the ElicitResult.
//
//   - form mode (the default) ⇒ Request{Kind: "input", Prompt: message,
//     Data: {"schema": requestedSchema, "server": name}}
//   - URL mode ⇒ Request{Kind: "authorization", URL: url, Prompt: message}
//
// An Ok Answer accepts (form mode sends Answer.Data as the content); an
// Answer with Ok false declines, unless its reason is "cancel" or
// "cancelled"; a WaitFor error (no answer at all) cancels.
func (s *mcpServer) elicit(ctx context.Context, params gjson.Result) map[string]any {
	n := s.asks.Add(1)
	req := Request{
		ID:     fmt.Sprintf("mcp_%s_elicit_%d", sanitizeToolPart(s.cfg.Name), n),
		Kind:   "input",
		Prompt: params.Get("message").String(),
		Data:   map[string]any{"server": s.cfg.Name},
	}
	urlMode := params.Get("mode").String() == "url"
	if urlMode {
		req.Kind = "authorization"
		req.URL = params.Get("url").String()
		if !httpScheme(req.URL) {
			return map[string]any{"action": "decline"}
		}
	} else {
		schema, _ := params.Get("requestedSchema").Value().(map[string]any)
		if schema == nil {
			schema = map[string]any{"type": "object", "properties": map[string]any{}}
		}
		req.Data["schema"] = schema
	}
	ans, err := s.waitFor(ctx, req)
	switch {
	case err != nil:
		return map[string]any{"action": "cancel"}
	case !ans.Ok:
		switch strings.ToLower(ans.Reason) {
		case "cancel", "cancelled", "canceled":
			return map[string]any{"action": "cancel"}
		}
		return map[string]any{"action": "decline"}
	case urlMode:
		return map[string]any{"action": "accept"}
	}
	content := ans.Data
	if content == nil {
		content = map[string]any{}
	}
	return map[string]any{"action": "accept", "content": content}
}
