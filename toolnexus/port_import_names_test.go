package toolnexus

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// portTestImportNames are the names the port's own test files (package
// toolnexus, in-package) import packages under. A package-level declaration
// of ours with one of these names makes such a file fail to compile here
// ("server already declared through import of package server"), although
// its import line is the only thing changed.
var portTestImportNames = []string{
	"agents", "atomic", "bytes", "context", "errors", "filepath", "fmt", "http", "httptest",
	"io", "json", "mcp", "mcpclient", "os", "reflect", "regexp", "server", "sort", "strconv",
	"strings", "sync", "testing", "time", "tn",
}

func TestNoDeclarationTakesAPortTestImportName(t *testing.T) {
	// The port's agents tests sit in package agents, with the same imports.
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	more, err := filepath.Glob(filepath.Join("agents", "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, more...)
	taken := map[string]bool{}
	for _, n := range portTestImportNames {
		taken[n] = true
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatalf("parse %s: %v", name, err)
		}
		for _, id := range topLevelNames(f) {
			if taken[id.Name] {
				t.Errorf("%s: package-level %q is a name the port's tests import a package under; rename it", fset.Position(id.Pos()), id.Name)
			}
		}
	}
}

// topLevelNames are the identifiers f declares at package level (methods
// excepted: they live in their type's scope).
func topLevelNames(f *ast.File) []*ast.Ident {
	var ids []*ast.Ident
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil {
				ids = append(ids, d.Name)
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					ids = append(ids, s.Name)
				case *ast.ValueSpec:
					ids = append(ids, s.Names...)
				}
			}
		}
	}
	return ids
}
