package worker

import (
	"context"
	"strings"

	"github.com/toolnexus/wasm/core"
)

// fileBuiltins are the built-ins that work on the file system: on a Worker
// they need FILES_R2 or FILES_KV, because a request starts with nothing in
// memory (a write approved on /v1/resume would land in an empty, forgotten
// file system).
var fileBuiltins = map[string]bool{"read": true, "write": true, "edit": true, "glob": true, "grep": true, "apply_patch": true}

// builtinsOption turns the BUILTINS setting into core.Options.Builtins for
// one request:
//
//	unset, "off"         none (the default: a deployed agent's tools do not
//	                     change on upgrade, and webfetch lets the model make
//	                     the Worker fetch any URL)
//	"on"                 all of core.BuiltinNames that can work here: the
//	                     file tools only when a files binding is present
//	"read,grep,question" exactly those (a file tool without a binding is an
//	                     error)
//
// The file tools work on workspace's files in the bound store; write, edit
// and apply_patch halt for approval as on every runtime.
func (h *Handler) builtinsOption(ctx context.Context, workspace string) (any, error) {
	setting := strings.TrimSpace(h.opts.Getenv("BUILTINS"))
	if setting == "" || setting == "off" {
		return false, nil
	}
	if !core.BuiltinsLinked() {
		return nil, &ConfigError{"BUILTINS", "is set, but this build has no built-in tools (its main must import _ \"github.com/toolnexus/wasm/core/builtins\")"}
	}
	store := h.opts.Files()
	want := map[string]bool{}
	if setting == "on" {
		for _, name := range core.BuiltinNames {
			want[name] = store != nil || !fileBuiltins[name]
		}
	} else {
		known := map[string]bool{}
		for _, name := range core.BuiltinNames {
			known[name] = true
		}
		for _, name := range strings.Split(setting, ",") {
			name = strings.TrimSpace(name)
			switch {
			case !known[name]:
				return nil, &ConfigError{"BUILTINS", `names an unknown tool ` + QuoteClip(name) + ` (want "on", "off" or a list of ` + strings.Join(core.BuiltinNames, ", ") + `)`}
			case fileBuiltins[name] && store == nil:
				return nil, &ConfigError{"BUILTINS", "names " + name + ", which needs an R2 bucket bound as " + FilesR2Binding + " or a KV namespace bound as " + FilesKVBinding}
			}
			want[name] = true
		}
	}
	cfg := core.BuiltinsConfig{Tools: map[string]bool{}, Transport: h.opts.Transport, Match: h.opts.Match}
	files := false
	for _, name := range core.BuiltinNames {
		cfg.Tools[name] = want[name]
		files = files || want[name] && fileBuiltins[name]
	}
	if files {
		if workspace == "" {
			workspace = defaultWorkspace
		}
		cfg.Files = newWorkspaceFS(ctx, store, workspace)
	}
	return cfg, nil
}
