package builtins

import (
	"errors"
	fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx
	"io/fs"
	"path"
	"strings"
	"unicode/utf8"

	"github.com/toolnexus/wasm/core/tool"
	"github.com/toolnexus/wasm/core/vfs"
)

// The file built-ins work on a FileSystem (see BuiltinsConfig.Files). Their
// input schemas are those of the Go port's built-ins.

func readTool(files vfs.FileSystem) tool.Tool {
	return builtin("read",
		"Read a text file from the virtual file system. With offset (1-based line) and limit, only that window of lines.",
		tool.ObjectSchema(`{
			"path":   {"type": "string", "description": "Path of the file"},
			"offset": {"type": "number", "description": "First line to return, counting from 1"},
			"limit":  {"type": "number", "description": "How many lines to return"}
		}`, "path"),
		func(args map[string]any, _ *tool.ToolContext) (tool.ToolResult, error) {
			p, err := requireStr(args, "path")
			if err != nil {
				return tool.ToolResult{}, err
			}
			b, err := files.ReadFile(p)
			if err != nil {
				return tool.ToolResult{}, fileErr(p, err)
			}
			if !utf8.Valid(b) {
				return tool.ToolResult{}, fmt.Errorf("%s is not UTF-8 text", p)
			}
			text := string(b)
			_, hasOff := args["offset"]
			_, hasLim := args["limit"]
			if !hasOff && !hasLim {
				return tool.ToolResult{Output: text}, nil
			}
			lines := strings.Split(text, "\n")
			start := max(argInt(args, "offset", 1), 1) - 1
			start = min(start, len(lines))
			end := len(lines)
			if hasLim {
				end = min(start+max(argInt(args, "limit", 0), 0), len(lines))
			}
			return tool.ToolResult{Output: strings.Join(lines[start:end], "\n")}, nil
		})
}

func writeTool(files vfs.FileSystem) tool.Tool {
	return builtin("write",
		"Create or overwrite a file in the virtual file system with the given content.",
		tool.ObjectSchema(`{
			"path":    {"type": "string", "description": "Path of the file"},
			"content": {"type": "string", "description": "The whole new content"}
		}`, "path", "content"),
		func(args map[string]any, _ *tool.ToolContext) (tool.ToolResult, error) {
			p, err := requireStr(args, "path")
			if err != nil {
				return tool.ToolResult{}, err
			}
			content, ok := args["content"].(string)
			if !ok {
				return tool.ToolResult{}, errors.New("content is required (a string)")
			}
			if err := files.WriteFile(p, []byte(content)); err != nil {
				return tool.ToolResult{}, fileErr(p, err)
			}
			return tool.ToolResult{Output: fmt.Sprintf("Wrote %s to %s", plural(len(content), "byte"), p), Metadata: map[string]any{"path": p, "bytes": len(content)}}, nil
		})
}

func editTool(files vfs.FileSystem) tool.Tool {
	return builtin("edit",
		"Replace exact text in a file. oldString must occur exactly once unless replaceAll is true.",
		tool.ObjectSchema(`{
			"path":       {"type": "string", "description": "Path of the file"},
			"oldString":  {"type": "string", "description": "The exact text to replace"},
			"newString":  {"type": "string", "description": "The text to put in its place"},
			"replaceAll": {"type": "boolean", "description": "Replace every occurrence"}
		}`, "path", "oldString", "newString"),
		func(args map[string]any, _ *tool.ToolContext) (tool.ToolResult, error) {
			p, err := requireStr(args, "path")
			if err != nil {
				return tool.ToolResult{}, err
			}
			oldS, err := requireStr(args, "oldString")
			if err != nil {
				return tool.ToolResult{}, err
			}
			newS, ok := args["newString"].(string)
			if !ok {
				return tool.ToolResult{}, errors.New("newString is required (a string)")
			}
			b, err := files.ReadFile(p)
			if err != nil {
				return tool.ToolResult{}, fileErr(p, err)
			}
			text := string(b)
			n := strings.Count(text, oldS)
			all, _ := args["replaceAll"].(bool)
			switch {
			case n == 0:
				return tool.ToolResult{}, fmt.Errorf("oldString does not occur in %s", p)
			case n > 1 && !all:
				return tool.ToolResult{}, fmt.Errorf("oldString occurs %d times in %s; give more context or set replaceAll", n, p)
			}
			if !all {
				n = 1
			}
			if err := files.WriteFile(p, []byte(strings.Replace(text, oldS, newS, n))); err != nil {
				return tool.ToolResult{}, fileErr(p, err)
			}
			return tool.ToolResult{Output: fmt.Sprintf("Edited %s (%s)", p, plural(n, "replacement")), Metadata: map[string]any{"path": p, "replacements": n}}, nil
		})
}

func globTool(files vfs.FileSystem) tool.Tool {
	return builtin("glob",
		"List the files whose path matches a glob (* within a name, ** across folders, ?). A pattern without / matches file names. One path per line.",
		tool.ObjectSchema(`{
			"pattern": {"type": "string", "description": "The glob, e.g. **/*.md"},
			"path":    {"type": "string", "description": "Folder to search in (default: the root)"},
			"limit":   {"type": "number", "description": "Most paths to return (default 100)"}
		}`, "pattern"),
		func(args map[string]any, _ *tool.ToolContext) (tool.ToolResult, error) {
			pattern, err := requireStr(args, "pattern")
			if err != nil {
				return tool.ToolResult{}, err
			}
			if _, err := path.Match(strings.ReplaceAll(pattern, "**", "*"), ""); err != nil {
				return tool.ToolResult{}, fmt.Errorf("bad pattern %q: %w", pattern, err)
			}
			rels, err := filesUnder(files, argStr(args, "path"))
			if err != nil {
				return tool.ToolResult{}, err
			}
			var found []string
			for _, rel := range rels {
				if globMatch(pattern, rel) {
					found = append(found, rel)
				}
			}
			limit := argInt(args, "limit", 100)
			total := len(found)
			if limit >= 0 && len(found) > limit {
				found = found[:limit]
			}
			out := strings.Join(found, "\n")
			if total == 0 {
				out = "No files match " + pattern
			}
			return tool.ToolResult{Output: out, Metadata: map[string]any{"count": len(found), "total": total}}, nil
		})
}

func grepTool(files vfs.FileSystem, match tool.Matcher, dialect string) tool.Tool {
	return builtin("grep",
		"Search file contents for a regular expression ("+dialect+"). One match per line as path:line:text.",
		tool.ObjectSchema(`{
			"pattern": {"type": "string", "description": "Regular expression to look for (`+dialect+`)"},
			"path":    {"type": "string", "description": "Folder to search in (default: the root)"},
			"include": {"type": "string", "description": "Glob the file names must match, e.g. *.go"},
			"limit":   {"type": "number", "description": "Most matches to return (default 100)"}
		}`, "pattern"),
		func(args map[string]any, _ *tool.ToolContext) (tool.ToolResult, error) {
			pattern, err := requireStr(args, "pattern")
			if err != nil {
				return tool.ToolResult{}, err
			}
			test, err := match(pattern)
			if err != nil {
				return tool.ToolResult{}, fmt.Errorf("bad pattern %q: %w", pattern, err)
			}
			dir := argStr(args, "path")
			rels, err := filesUnder(files, dir)
			if err != nil {
				return tool.ToolResult{}, err
			}
			include := argStr(args, "include")
			limit := argInt(args, "limit", 100)
			var hits []string
			total := 0
			for _, rel := range rels {
				if include != "" && !globMatch(include, rel) {
					continue
				}
				b, err := files.ReadFile(joinRel(dir, rel))
				if err != nil || !utf8.Valid(b) {
					continue // unreadable or binary: not searchable text
				}
				for i, line := range strings.Split(string(b), "\n") {
					if test(line) {
						total++
						if limit < 0 || len(hits) < limit {
							hits = append(hits, fmt.Sprintf("%s:%d:%s", rel, i+1, line))
						}
					}
				}
			}
			out := strings.Join(hits, "\n")
			if total == 0 {
				out = "No matches for " + pattern
			}
			return tool.ToolResult{Output: out, Metadata: map[string]any{"count": len(hits), "total": total}}, nil
		})
}

// filesUnder lists the files below dir ("" or "." is the root), as paths
// relative to dir, sorted.
func filesUnder(files vfs.FileSystem, dir string) ([]string, error) {
	all, err := files.List()
	if err != nil {
		return nil, fmt.Errorf("list files: %w", err)
	}
	prefix := ""
	if dir != "" && dir != "." && dir != "/" {
		d, err := vfs.CleanPath(dir)
		if err != nil {
			return nil, err
		}
		prefix = d + "/"
	}
	var out []string
	for _, f := range all {
		if strings.HasPrefix(f, prefix) {
			out = append(out, f[len(prefix):])
		}
	}
	return out, nil
}

func joinRel(dir, rel string) string {
	if dir == "" || dir == "." || dir == "/" {
		return rel
	}
	return strings.TrimSuffix(dir, "/") + "/" + rel
}

// globMatch matches a slash-separated path against a glob: "**" as a whole
// element matches any number of folders, other elements follow path.Match.
// A glob without "/" is matched against the file name only.
func globMatch(glob, rel string) bool {
	if !strings.Contains(glob, "/") {
		ok, _ := path.Match(glob, path.Base(rel))
		return ok
	}
	return matchElems(strings.Split(glob, "/"), strings.Split(rel, "/"))
}

func matchElems(g, p []string) bool {
	for len(g) > 0 {
		if g[0] == "**" {
			for i := 0; i <= len(p); i++ {
				if matchElems(g[1:], p[i:]) {
					return true
				}
			}
			return false
		}
		if len(p) == 0 {
			return false
		}
		ok, _ := path.Match(strings.ReplaceAll(g[0], "**", "*"), p[0])
		if !ok {
			return false
		}
		g, p = g[1:], p[1:]
	}
	return len(p) == 0
}

// fileErr words a file system error for the model.
func fileErr(p string, err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%s does not exist", p)
	}
	return fmt.Errorf("%s: %w", p, err)
}
