package mcp

import (
	"context"
	fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx
	"strings"

	"github.com/tidwall/gjson"
	"github.com/toolnexus/wasm/core/tool"
	"github.com/toolnexus/wasm/internal/jsonx"
)

// mcpMaxPages stops a server whose nextCursor never ends.
const mcpMaxPages = 100

// listTools pages through tools/list and adapts every tool, marking the
// ones the server's approval policy asks for (approval.go) and leaving
// out the ones that only run as tasks.
func (s *mcpServer) listTools(ctx context.Context) error {
	rules := approvalRules(s.cfg.Name, s.cfg.Approval)
	cursor := ""
	for page := 0; ; page++ {
		if page == mcpMaxPages {
			return fmt.Errorf("more than %d pages of tools", mcpMaxPages)
		}
		params := ""
		if cursor != "" {
			params = `{"cursor":` + string(jsonx.AppendString(nil, cursor)) + `}`
		}
		res, err := s.call(ctx, "tools/list", params)
		if err != nil {
			return err
		}
		for _, t := range res.Get("tools").Array() {
			s.listed = append(s.listed, t.Raw)
			if !tool.AllowedByFilter(t.Get("name").String(), s.cfg.ToolFilter) {
				continue
			}
			if taskOnly(t) {
				s.status.Hidden = append(s.status.Hidden, t.Get("name").String())
				continue
			}
			adapted, err := s.adaptTool(t)
			if err != nil {
				return err
			}
			markApproval(rules, s.cfg.Name, t, &adapted)
			s.tools = append(s.tools, adapted)
		}
		next := res.Get("nextCursor").String()
		if next == "" || next == cursor {
			return nil
		}
		cursor = next
	}
}

// Listed is every tool the server listed, before its "tools" filter, for
// the Go port's ListMcpTools (decoded only when asked for).
func (s *mcpServer) Listed() []tool.MCPToolInfo {
	out := make([]tool.MCPToolInfo, 0, len(s.listed))
	for _, raw := range s.listed {
		t := gjson.Parse(raw)
		info := tool.MCPToolInfo{Name: t.Get("name").String(), Description: t.Get("description").String()}
		if m, ok := t.Get("inputSchema").Value().(map[string]any); ok {
			info.InputSchema = m
		}
		out = append(out, info)
	}
	return out
}

// adaptTool turns one entry of tools/list into a Tool named
// sanitize(server)_sanitize(tool), whose Execute calls tools/call.
func (s *mcpServer) adaptTool(t gjson.Result) (tool.Tool, error) {
	remote := t.Get("name").String()
	if remote == "" {
		return tool.Tool{}, fmt.Errorf("a tool has no name")
	}
	schema := tool.JSONSchema{"type": "object", "properties": map[string]any{}}
	if in := t.Get("inputSchema"); in.IsObject() {
		if m, ok := in.Value().(map[string]any); ok {
			schema = m
		}
	}
	desc := t.Get("description").String()
	if desc == "" {
		desc = t.Get("title").String()
	}
	return tool.Tool{
		Name:        mcpToolName(s.cfg.Name, remote),
		Description: desc,
		InputSchema: schema,
		Source:      tool.SourceMCP,
		Server:      s.cfg.Name,
		Execute: func(args map[string]any, tctx *tool.ToolContext) (tool.ToolResult, error) {
			ctx := context.Background()
			if tctx != nil && tctx.Ctx != nil {
				ctx = tctx.Ctx
			}
			if _, has := ctx.Deadline(); !has {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, s.timeout())
				defer cancel()
			}
			if args == nil {
				args = map[string]any{}
			}
			argsJSON, err := jsonx.Marshal(args)
			if err != nil {
				return tool.ToolResult{Output: fmt.Sprintf("tool %q: arguments: %v", remote, err), IsError: true}, nil
			}
			res, err := s.call(ctx, "tools/call", `{"name":`+string(jsonx.AppendString(nil, remote))+`,"arguments":`+string(argsJSON)+`}`)
			if err != nil {
				if ctx.Err() == context.DeadlineExceeded {
					err = fmt.Errorf("timed out: %w", err)
				}
				return tool.ToolResult{Output: fmt.Sprintf("mcp server %q: tools/call %s: %v", s.cfg.Name, remote, err), IsError: true}, nil
			}
			return mcpToolResult(res), nil
		},
	}, nil
}

// mcpToolResult maps a CallToolResult: isError ⇒ an error result with the
// joined text; structuredContent ⇒ its JSON; else the joined content, each
// block as text (mcpcontent.go: images, audio and resources are described).
func mcpToolResult(res gjson.Result) tool.ToolResult {
	var texts []string
	for _, c := range res.Get("content").Array() {
		texts = append(texts, mcpContentText(c))
	}
	text := strings.Join(texts, "\n")
	if res.Get("isError").Bool() {
		if text == "" {
			text = "the tool reported an error"
		}
		return tool.ToolResult{Output: text, IsError: true}
	}
	if sc := res.Get("structuredContent"); sc.Exists() && sc.Type != gjson.Null {
		return tool.ToolResult{Output: sc.Get("@ugly").Raw}
	}
	return tool.ToolResult{Output: text}
}
