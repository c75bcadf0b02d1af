package mcp

import (
	"context"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"
	"github.com/toolnexus/wasm/core/tool"
	"github.com/toolnexus/wasm/internal/jsonx"
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
func (s *mcpServer) elicit(ctx context.Context, params gjson.Result) string {
	const decline, cancel = `{"action":"decline"}`, `{"action":"cancel"}`
	n := s.asks.Add(1)
	req := tool.Request{
		ID:     "mcp_" + sanitizeToolPart(s.cfg.Name) + "_elicit_" + strconv.FormatInt(n, 10),
		Kind:   "input",
		Prompt: params.Get("message").String(),
		Data:   map[string]any{"server": s.cfg.Name},
	}
	urlMode := params.Get("mode").String() == "url"
	if urlMode {
		req.Kind = "authorization"
		req.URL = params.Get("url").String()
		if !tool.IsHTTPURL(req.URL) {
			return decline
		}
	} else {
		schema, _ := params.Get("requestedSchema").Value().(map[string]any)
		if schema == nil {
			schema = tool.JSONSchema{"type": "object", "properties": map[string]any{}}
		}
		req.Data["schema"] = schema
	}
	ans, err := s.waitFor(ctx, req)
	switch {
	case err != nil:
		return cancel
	case !ans.Ok:
		switch strings.ToLower(ans.Reason) {
		case "cancel", "cancelled", "canceled":
			return cancel
		}
		return decline
	case urlMode:
		return `{"action":"accept"}`
	}
	content := "{}"
	if ans.Data != nil {
		b, err := jsonx.Marshal(ans.Data)
		if err != nil {
			return cancel
		}
		content = string(b)
	}
	return `{"action":"accept","content":` + content + `}`
}
