package agents

import (
	"path/filepath"
	"strings"

	tn "github.com/toolnexus/wasm/toolnexus"
)

// A persona home is a directory that is the agent: its bootstrap files
// make up the soul, read once when the agent is built (a snapshot: what
// the memory tool writes during a session shows up in the next one), and
// its memory files are what the memory tool edits.

// BootstrapOrder is the order in which a home's files join the soul,
// identity first and memory last; each present file becomes a
// "## <file>" section.
var BootstrapOrder = []string{
	"AGENTS.md", "SOUL.md", "IDENTITY.md", "USER.md", "TOOLS.md", "HEARTBEAT.md", "MEMORY.md",
}

// HeartbeatOK is what a persona answers to a heartbeat that needs no
// action; such a beat is not reported.
const HeartbeatOK = "HEARTBEAT_OK"

// bootstrapCap bounds how much of one bootstrap file enters the soul.
const bootstrapCap = 2 << 20

// ComposeSoul builds the soul from dir's bootstrap files in BootstrapOrder
// and lists the files it found; missing (or unreadable) files are skipped.
// A file over 2 MB is cut there, with a note; the file itself is untouched.
func ComposeSoul(dir string) (soul string, found []string) {
	var parts []string
	for _, name := range BootstrapOrder {
		text, err := readFile(filepath.Join(dir, name))
		if err != nil {
			continue
		}
		if len(text) > bootstrapCap {
			text = text[:bootstrapCap] + "\n[truncated: exceeds 2 MB bootstrap cap]"
		}
		parts = append(parts, "## "+name+"\n\n"+strings.TrimSpace(text))
		found = append(found, name)
	}
	return strings.Join(parts, "\n\n"), found
}

// FromDirOptions tunes FromDir.
type FromDirOptions struct {
	// Does is the routing description (default "persona agent from <dir>").
	Does string
	// Name is the agent's name (default: the directory's base name).
	Name string
	// Model is the model id (default "inherit").
	Model string
	// Tools are added to the memory tool.
	Tools []tn.Tool
	// Memory, pointing at false, leaves the memory tool out (a read-only
	// persona); nil keeps it.
	Memory *bool
}

// FromDir builds the persona agent a home directory describes: the soul
// composed from its bootstrap files, and the memory tool over the same
// directory unless opts turn it off.
func FromDir(dir string, opts FromDirOptions) *Agent {
	soul, _ := ComposeSoul(dir)
	spec := Spec{Does: opts.Does, Soul: soul, Model: opts.Model}
	if spec.Does == "" {
		spec.Does = "persona agent from " + dir
	}
	if spec.Model == "" {
		spec.Model = "inherit"
	}
	name := opts.Name
	if name == "" {
		name = filepath.Base(dir)
	}
	spec.Tools = append([]tn.Tool(nil), opts.Tools...)
	if opts.Memory == nil || *opts.Memory {
		spec.Tools = append(spec.Tools, MemoryTool(dir))
	}
	return New(name, spec)
}
