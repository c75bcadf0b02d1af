package worker

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/core/approval"
	"github.com/toolnexus/wasm/internal/httpx"
)

// toolkitOptions is what every request builds its toolkit from: the tools
// of Options.Tools, those of HTTP_TOOLS (httptools.go), the tools of
// A2A_AGENTS' agents (a2atools.go), then the tools of the MCP servers in
// MCP_CONFIG.
//
// MCP_CONFIG holds an MCP configuration (core.ParseMCPConfig), e.g.
//
//	{"mcpServers": {"docs": {"url": "https://docs.example/mcp",
//	  "headers": {"authorization": "Bearer ${DOCS_TOKEN}"}, "timeout": 10000}}}
//
// ${NAME} in a header value is filled from the Worker's environment (a var
// or a secret); an unset name fails that server. The servers are contacted
// on every request that builds a toolkit (no MCP session is kept between
// requests), over streamable HTTP or, for a server of type "sse", the older
// HTTP+SSE transport (the Worker's fetch streams event-stream replies). A
// server that fails is left out and logged; the request goes on without
// its tools. A server's "approval" key (core.MCPApproval) decides which of
// its tools halt a run for approval; a configuration that does not parse is
// a *ConfigError naming MCP_CONFIG.
//
// BUILTINS picks the built-in tools (builtins.go; their file tools work on
// workspace's files) and SKILLS=on adds the bundled skills (skills.go).
func (h *Handler) toolkitOptions(ctx context.Context, workspace string) (core.Options, error) {
	builtins, err := h.builtinsOption(ctx, workspace)
	if err != nil {
		return core.Options{}, err
	}
	httpTools, err := h.httpTools()
	if err != nil {
		return core.Options{}, err
	}
	policy, err := h.ApprovalPolicy()
	if err != nil {
		return core.Options{}, err
	}
	opts := core.Options{ExtraTools: append(h.tools(), httpTools...), Builtins: builtins, SkillsFS: h.skills(), Approvals: policy}
	if err := h.addA2A(ctx, &opts); err != nil { // A2A_AGENTS (a2atools.go)
		return core.Options{}, err
	}
	cfg := strings.TrimSpace(h.opts.Getenv("MCP_CONFIG"))
	if cfg == "" {
		return opts, nil
	}
	if _, err := core.ParseMCPConfig([]byte(cfg)); err != nil {
		return core.Options{}, &ConfigError{Setting: "MCP_CONFIG", Problem: "is invalid: " + strings.TrimPrefix(err.Error(), "core: ")}
	}
	opts.MCP = []byte(cfg)
	opts.Transport = h.opts.Transport
	opts.Variables = map[string]string{}
	for _, name := range variableNames(cfg) {
		if v := h.opts.Getenv(name); v != "" {
			opts.Variables[name] = v
		}
	}
	return opts, nil
}

// variableNames lists the NAME of every ${NAME} in s.
func variableNames(s string) []string {
	var out []string
	for {
		i := strings.Index(s, "${")
		if i < 0 {
			return out
		}
		j := strings.IndexByte(s[i:], '}')
		if j < 0 {
			return out
		}
		out = append(out, s[i+2:i+j])
		s = s[i+j+1:]
	}
}

// NewToolkit returns the toolkit of a request (see toolkitOptions) and logs
// each MCP server that failed (reasons never carry header values). A
// setting that cannot work is a *ConfigError. The toolkit's tools, skills
// and their encodings are built once per configuration and shared by the
// requests that have it (builds) unless they hold something of the
// request's own: MCP_CONFIG's sessions, A2A_AGENTS' cards, the built-in
// file tools on workspace. Its approval policy is always the request's own
// (WithApprovals: grants never pass from one request to another). The
// caller closes it either way; a shared one holds no session, so closing
// it changes nothing.
func (h *Handler) NewToolkit(ctx context.Context, workspace string) (*core.Toolkit, error) {
	var buildErr error
	shared := true
	tk := h.builds.toolkit.get(h, func(h *Handler) (*core.Toolkit, bool) {
		opts, err := h.toolkitOptions(ctx, workspace)
		if err != nil {
			buildErr = err
			return nil, false
		}
		tk, err := core.CreateToolkit(ctx, opts)
		if err != nil {
			buildErr = err
			return nil, false
		}
		for name, st := range tk.MCPServers() {
			if st.Status == core.MCPFailed {
				h.opts.Logf("worker: mcp server %s failed: %s", name, st.Reason)
			}
		}
		files := false
		if b, ok := opts.Builtins.(core.BuiltinsConfig); ok {
			files = b.Files != nil
		}
		shared = opts.MCP == nil && strings.TrimSpace(h.opts.Getenv("A2A_AGENTS")) == "" && !files
		return tk, shared
	})
	if buildErr != nil {
		return nil, buildErr
	}
	if shared {
		return tk.WithApprovals(&approval.Policy{Rules: tk.Approvals().Rules}), nil
	}
	return tk, nil
}

// RequestToolkit is NewToolkit for a route that answers with JSON: when the
// toolkit cannot be built it answers 500 (naming the setting when one is
// wrong) and ok is false.
func (h *Handler) RequestToolkit(ctx context.Context, w httpx.ResponseWriter, workspace string) (tk *core.Toolkit, ok bool) {
	tk, err := h.NewToolkit(ctx, workspace)
	_, isConfigs := errors.AsType[ConfigErrors](err)
	switch ce, isConfig := errors.AsType[*ConfigError](err); {
	case isConfigs:
		h.WriteConfigError(w, err)
		return nil, false
	case isConfig:
		h.WriteConfigError(w, ce)
		return nil, false
	case err != nil:
		h.InternalError(w, fmt.Errorf("build toolkit: %w", err))
		return nil, false
	}
	return tk, true
}
