package toolnexus

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// The file built-ins: read, write, edit, grep and glob on the host's file
// system. Paths are used as given; a relative one is relative to the
// process's working directory.

func readFileTool() Tool {
	return hostTool("read",
		"Read a text file. Give offset (the first line, counted from 1) and/or limit (how many lines) to get only part of it.",
		objectSchema(map[string]any{
			"path":   prop("string", "The file to read"),
			"offset": prop("number", "First line to return, counted from 1"),
			"limit":  prop("number", "How many lines to return at most"),
		}, "path"),
		func(args map[string]any, _ *ToolContext) (ToolResult, error) {
			p := stringArg(args, "path")
			if p == "" {
				return ToolResult{}, errors.New("path is required")
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return ToolResult{}, err
			}
			offset, hasOffset := numberArg(args, "offset")
			limit, hasLimit := numberArg(args, "limit")
			if !hasOffset && !hasLimit {
				return ToolResult{Output: string(data)}, nil
			}
			lines := strings.Split(string(data), "\n")
			from := 0
			if hasOffset && offset > 1 {
				from = min(int(offset)-1, len(lines))
			}
			to := len(lines)
			if hasLimit {
				to = min(from+max(int(limit), 0), len(lines))
			}
			return ToolResult{Output: strings.Join(lines[from:to], "\n")}, nil
		})
}

func writeFileTool() Tool {
	return hostTool("write",
		"Write a file, replacing what it held; missing parent directories are made.",
		objectSchema(map[string]any{
			"path":    prop("string", "The file to write"),
			"content": prop("string", "The whole new content"),
		}, "path", "content"),
		func(args map[string]any, _ *ToolContext) (ToolResult, error) {
			p := stringArg(args, "path")
			if p == "" {
				return ToolResult{}, errors.New("path is required")
			}
			content := stringArg(args, "content")
			if err := writeHostFile(p, content); err != nil {
				return ToolResult{}, err
			}
			return ToolResult{Output: fmt.Sprintf("Wrote %d bytes to %s", len(content), p), Metadata: map[string]any{"path": p, "bytes": len(content)}}, nil
		})
}

// writeHostFile writes content to p, making p's directory first.
func writeHostFile(p, content string) error {
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, []byte(content), 0o644)
}

func editFileTool() Tool {
	return hostTool("edit",
		"Replace oldString with newString in a file. oldString must occur exactly once unless replaceAll is true.",
		objectSchema(map[string]any{
			"path":       prop("string", "The file to change"),
			"oldString":  prop("string", "The exact text to replace"),
			"newString":  prop("string", "The text to put in its place"),
			"replaceAll": prop("boolean", "Replace every occurrence (default: exactly one)"),
		}, "path", "oldString", "newString"),
		func(args map[string]any, _ *ToolContext) (ToolResult, error) {
			p, old := stringArg(args, "path"), stringArg(args, "oldString")
			if p == "" || old == "" {
				return ToolResult{}, errors.New("path and oldString are required")
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return ToolResult{}, err
			}
			text := string(data)
			n := strings.Count(text, old)
			all, _ := args["replaceAll"].(bool)
			switch {
			case n == 0:
				return ToolResult{}, fmt.Errorf("oldString not found in %s", p)
			case n > 1 && !all:
				return ToolResult{}, fmt.Errorf("oldString is not unique in %s (%d occurrences); add context or set replaceAll", p, n)
			}
			if !all {
				n = 1
			}
			text = strings.Replace(text, old, stringArg(args, "newString"), n)
			if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
				return ToolResult{}, err
			}
			return ToolResult{Output: fmt.Sprintf("Replaced %d occurrence(s) in %s", n, p), Metadata: map[string]any{"path": p, "replacements": n}}, nil
		})
}

func grepFilesTool() Tool {
	return hostTool("grep",
		"Search file contents under a directory with a regular expression (Go RE2 syntax); include limits the files searched by a glob on their names. Returns path:line:text for each hit, at most limit of them.",
		objectSchema(map[string]any{
			"pattern": prop("string", "The regular expression"),
			"path":    prop("string", "Directory to search (default: the working directory)"),
			"include": prop("string", "Only files matching this glob, e.g. *.go"),
			"limit":   prop("number", "At most this many hits (default 100)"),
		}, "pattern"),
		func(args map[string]any, _ *ToolContext) (ToolResult, error) {
			re, err := regexp.Compile(stringArg(args, "pattern"))
			if err != nil {
				return ToolResult{}, err
			}
			root, limit := searchRoot(args), resultLimit(args)
			include := stringArg(args, "include")
			var hits []string
			for _, f := range filesUnderRoot(root) {
				if len(hits) >= limit {
					break
				}
				rel, _ := filepath.Rel(root, f)
				if include != "" && !globMatches(include, rel) {
					continue
				}
				data, err := os.ReadFile(f)
				if err != nil {
					continue
				}
				for i, line := range strings.Split(string(data), "\n") {
					if len(hits) < limit && re.MatchString(line) {
						hits = append(hits, fmt.Sprintf("%s:%d:%s", f, i+1, line))
					}
				}
			}
			return ToolResult{Output: strings.Join(hits, "\n"), Metadata: map[string]any{"count": len(hits)}}, nil
		})
}

func globFilesTool() Tool {
	return hostTool("glob",
		"List files under a directory whose path matches a glob (* and ? stay within one path segment, ** spans several; a glob without / is matched against file names). Paths come back relative to the directory, sorted, at most limit of them.",
		objectSchema(map[string]any{
			"pattern": prop("string", "The glob, e.g. **/*.go or *.md"),
			"path":    prop("string", "Directory to search (default: the working directory)"),
			"limit":   prop("number", "At most this many paths (default 100)"),
		}, "pattern"),
		func(args map[string]any, _ *ToolContext) (ToolResult, error) {
			pattern := stringArg(args, "pattern")
			if pattern == "" {
				return ToolResult{}, errors.New("pattern is required")
			}
			root, limit := searchRoot(args), resultLimit(args)
			var found []string
			for _, f := range filesUnderRoot(root) {
				if len(found) >= limit {
					break
				}
				rel, _ := filepath.Rel(root, f)
				rel = filepath.ToSlash(rel)
				if globMatches(pattern, rel) {
					found = append(found, rel)
				}
			}
			sort.Strings(found)
			return ToolResult{Output: strings.Join(found, "\n"), Metadata: map[string]any{"count": len(found)}}, nil
		})
}

// searchRoot is args["path"], else the working directory.
func searchRoot(args map[string]any) string {
	if p := stringArg(args, "path"); p != "" {
		return p
	}
	if wd, err := os.Getwd(); err == nil {
		return wd
	}
	return "."
}

// resultLimit is args["limit"], else 100: how many hits grep and glob
// return at most.
func resultLimit(args map[string]any) int {
	if n, ok := numberArg(args, "limit"); ok {
		return int(n)
	}
	return 100
}

// filesUnderRoot lists the regular files under root, skipping .git and
// node_modules directories; unreadable entries are passed over.
func filesUnderRoot(root string) []string {
	var out []string
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return nil
		case d.IsDir():
			if p != root && (d.Name() == ".git" || d.Name() == "node_modules") {
				return filepath.SkipDir
			}
		case d.Type().IsRegular():
			out = append(out, p)
		}
		return nil
	})
	return out
}

// globMatches reports whether the slash-separated path rel matches glob. A
// glob with no "/" is matched against rel's last element only.
func globMatches(glob, rel string) bool {
	rel = filepath.ToSlash(rel)
	if !strings.Contains(glob, "/") {
		rel = rel[strings.LastIndexByte(rel, '/')+1:]
	}
	return globRegexp(glob).MatchString(rel)
}

// globRegexp translates a glob into an anchored regular expression: ** (and
// a "/" after it) spans any number of segments, * and ? stay within one.
func globRegexp(glob string) *regexp.Regexp {
	var b strings.Builder
	b.WriteByte('^')
	for i := 0; i < len(glob); i++ {
		switch c := glob[i]; c {
		case '*':
			if strings.HasPrefix(glob[i:], "**") {
				b.WriteString(".*")
				i++
				if strings.HasPrefix(glob[i+1:], "/") {
					i++
				}
				continue
			}
			b.WriteString("[^/]*")
		case '?':
			b.WriteString("[^/]")
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	b.WriteByte('$')
	return regexp.MustCompile(b.String())
}
