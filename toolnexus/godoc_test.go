package toolnexus

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os/exec"
	"strings"
	"testing"
)

// TestGoDocShowsTheTypes: a user reads the port's types where they import
// them (issue 33: `go doc ./toolnexus ClientOptions` printed only
// `type ClientOptions = ClientOptions`). go doc of each documented type
// shows its fields or methods with their comments, and nothing in the
// package is an alias of the internal package.
func TestGoDocShowsTheTypes(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go doc")
	}
	all := goDoc(t, "-all", ".")
	if strings.Contains(all, "= port.") || strings.Contains(all, "= portskills.") {
		t.Errorf("go doc shows aliases of internal packages:\n%s", grepLines(all, "= port"))
	}
	for _, tt := range []struct {
		name string
		want []string // in go doc's output for the type
	}{
		{"ClientOptions", []string{"BaseURL ", "WaitFor ", "Hooks ", "OnError ", "HTTPClient ", "// Hooks see messages"}},
		{"Client", []string{"func (c *Client) RunWithAnswer(", "func (c *Client) Stream(", "func (c *Client) Metrics()"}},
		{"Options", []string{"ExtraTools ", "McpConfig ", "SkillsDir ", "Builtins "}},
		{"Toolkit", []string{"func (tk *Toolkit) Tools()", "func (tk *Toolkit) McpStatus()"}},
		{"Hooks", []string{"BeforeLLM ", "AfterTool "}},
		{"Answer", []string{"ID ", "Ok ", "Data ", "Reason "}},
		{"Request", []string{"Kind ", "Prompt ", "ExpiresAt "}},
		{"RunResult", []string{"Text ", "Messages ", "ToolCalls ", "Status ", "Pending ", "// Model is the model the run asked for"}},
		{"Tool", []string{"Name ", "InputSchema ", "Execute "}},
		{"ToolResult", []string{"Output ", "IsError ", "Metadata "}},
		{"ToolContext", []string{"Ctx ", "Answer "}},
		{"StreamEvent", []string{"Type ", "Delta ", "Result "}},
		{"SkillInfo", []string{"Name ", "Description "}},
	} {
		out := goDoc(t, ".", tt.name)
		for _, w := range tt.want {
			if !strings.Contains(out, w) {
				t.Errorf("go doc %s lacks %q:\n%s", tt.name, w, out)
			}
		}
	}
}

func goDoc(t *testing.T, args ...string) string {
	t.Helper()
	out, err := exec.Command("go", append([]string{"doc"}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("go doc %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

func grepLines(s, sub string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// TestCoreTypesDocIsCurrent: core_types.go is what `go generate
// ./toolnexus` writes from core's source today (a changed field of core's
// shows in toolnexus's go doc), and every alias of the package is there.
func TestCoreTypesDocIsCurrent(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go run")
	}
	if out, err := exec.Command("go", "run", "./internal/aliasdoc", "-check").CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, ".", func(fi fs.FileInfo) bool {
		return !strings.HasSuffix(fi.Name(), "_test.go") && fi.Name() != "core_types.go"
	}, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pkgs {
		for name, f := range p.Files {
			for _, d := range f.Decls {
				g, ok := d.(*ast.GenDecl)
				if !ok || g.Tok != token.TYPE {
					continue
				}
				for _, s := range g.Specs {
					if ts := s.(*ast.TypeSpec); ts.Assign.IsValid() && ts.Name.IsExported() {
						t.Errorf("%s: alias %s: list it in internal/aliasdoc, whose core_types.go shows its declaration", name, ts.Name.Name)
					}
				}
			}
		}
	}
}
