package builtins

import (
	"context"
	fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx
	"io"
	"strings"
	"time"

	"github.com/toolnexus/wasm/core/tool"
)

const defaultFetchMaxBytes = 512 << 10

func webfetchTool(cfg tool.BuiltinsConfig) tool.Tool {
	return builtin("webfetch",
		"Fetch a URL with GET and return its content: readable markdown (the default) or plain text from HTML, or the raw html.",
		tool.ObjectSchema(`{
			"url":     {"type": "string", "description": "The http or https URL"},
			"format":  {"type": "string", "enum": ["text", "markdown", "html"], "description": "How to return the content (default markdown)"},
			"timeout": {"type": "number", "description": "Time limit in seconds (default 30, at most 120)"}
		}`, "url"),
		func(args map[string]any, tctx *tool.ToolContext) (tool.ToolResult, error) {
			url, err := requireStr(args, "url")
			if err != nil {
				return tool.ToolResult{}, err
			}
			if !tool.IsHTTPURL(url) {
				return tool.ToolResult{}, fmt.Errorf("invalid URL %q (want http or https)", url)
			}
			format := argStr(args, "format")
			switch format {
			case "":
				format = "markdown"
			case "text", "markdown", "html":
			default:
				return tool.ToolResult{}, fmt.Errorf("format must be text, markdown or html, not %q", format)
			}
			secs := min(max(argInt(args, "timeout", 30), 1), 120)
			ctx := context.Background()
			if tctx != nil && tctx.Ctx != nil {
				ctx = tctx.Ctx
			}
			ctx, cancel := context.WithTimeout(ctx, time.Duration(secs)*time.Second)
			defer cancel()
			tr := cfg.Transport
			if tr == nil {
				tr = tool.DefaultTransport()
			}
			resp, err := tr.Do(ctx, &tool.HTTPRequest{Method: "GET", URL: url, Header: map[string]string{
				"accept": "text/markdown, text/html;q=0.9, text/plain;q=0.8, */*;q=0.5",
			}})
			if err != nil {
				return tool.ToolResult{}, fmt.Errorf("GET %s: %w", url, err)
			}
			defer resp.Body.Close()
			body, err := io.ReadAll(io.LimitReader(resp.Body, int64(cfg.MaxFetchBytes)+1))
			if err != nil {
				return tool.ToolResult{}, fmt.Errorf("read %s: %w", url, err)
			}
			truncated := len(body) > cfg.MaxFetchBytes
			if truncated {
				body = body[:cfg.MaxFetchBytes]
			}
			meta := map[string]any{"status": resp.Status, "format": format, "url": url}
			if resp.Status < 200 || resp.Status > 299 {
				return tool.ToolResult{Output: fmt.Sprintf("HTTP %d: %s", resp.Status, clip(string(body), 2000)), IsError: true, Metadata: meta}, nil
			}
			text := string(body)
			ctype := strings.ToLower(resp.Header["content-type"])
			isHTML := strings.Contains(ctype, "html") || (ctype == "" && looksLikeHTML(text))
			if isHTML && format != "html" {
				text = htmlToMarkdown(text, format == "markdown")
			}
			if truncated {
				text += fmt.Sprintf("\n\n[cut off: the page is longer than %d bytes]", cfg.MaxFetchBytes)
				meta["truncated"] = true
			}
			return tool.ToolResult{Output: text, Metadata: meta}, nil
		})
}

func looksLikeHTML(s string) bool {
	head := strings.ToLower(strings.TrimSpace(clip(s, 512)))
	return strings.HasPrefix(head, "<!doctype html") || strings.HasPrefix(head, "<html") || strings.Contains(head, "<body")
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}
