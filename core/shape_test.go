package core

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// maxKernelLines bounds package core's own non-test source (wc -l of
// core/*.go): the kernel stays small enough to read; features go into the
// packages around it (core/tool, core/wire, core/mcp, …) or into toolnexus.
// Issue 23 set it at 4,000. Issue 31 raised it to 4,500: continuing a run
// from its journal (journal.go, continue.go, interrupted.go, ~690 lines)
// reads the loop's own state, so it belongs in the kernel; the argument
// checks (core/tool/checkargs.go) and the metrics' text (internal/promtext)
// moved out to make room for most of it. 4,600 leaves room for issue 36's
// RunsOnDecline and for an answer to a question about a lost outcome given
// through RunWithAnswer (answerGroup).
const maxKernelLines = 4600

// TestKernelShape holds the shape issue 23 gave core: at most
// maxKernelLines lines and one API (no Raw* twins).
func TestKernelShape(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	lines := 0
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		lines += bytes.Count(src, []byte("\n"))
		f, err := parser.ParseFile(fset, name, src, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			for _, id := range exportedNames(d) {
				if strings.HasPrefix(id, "Raw") || strings.HasPrefix(id, "CreateRaw") {
					t.Errorf("%s: %s: core has one API; Raw twins belong in package toolnexus", name, id)
				}
			}
		}
	}
	if lines > maxKernelLines {
		t.Errorf("package core has %d non-test lines, more than %d: move a feature into a package of its own", lines, maxKernelLines)
	}
	t.Logf("package core: %d non-test lines (limit %d)", lines, maxKernelLines)
}

// exportedNames lists the exported names a top-level declaration adds.
func exportedNames(d ast.Decl) []string {
	var out []string
	switch d := d.(type) {
	case *ast.FuncDecl:
		if d.Recv == nil && d.Name.IsExported() {
			out = append(out, d.Name.Name)
		}
	case *ast.GenDecl:
		for _, s := range d.Specs {
			switch s := s.(type) {
			case *ast.TypeSpec:
				if s.Name.IsExported() {
					out = append(out, s.Name.Name)
				}
			case *ast.ValueSpec:
				for _, n := range s.Names {
					if n.IsExported() {
						out = append(out, n.Name)
					}
				}
			}
		}
	}
	return out
}
