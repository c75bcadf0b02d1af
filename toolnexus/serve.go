package toolnexus

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/tidwall/gjson"
	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/core/a2a"
	"github.com/toolnexus/wasm/internal/mcpserve"
)

// Serve and its A2A profile, in the Go port's shape: a toolkit served as a
// remote A2A agent (GET /.well-known/agent-card.json, JSON-RPC SendMessage
// and GetTask on POST, tasks fulfilled by the client's loop and kept in a
// TaskStore) and, with the MCP profile (serve_mcp.go), as an MCP server at
// /mcp — this repository's own, internal/mcpserve.

const (
	cardPath = "/.well-known/agent-card.json"
	// maxRPCBody bounds a JSON-RPC request: a message for a model, not an
	// upload (a2a.DecodeRequest also bounds its depth).
	maxRPCBody = 1 << 20
)

// OnTaskEvent is what OnTask hears when a served task ends (or halts
// waiting for input): its id, the task as stored, the run's result (nil
// for a failed run) and the task's state.
type OnTaskEvent struct {
	ID     string
	Skill  string
	Task   A2ATask
	Result *core.RunResult
	State  string
}

// OnTask is called as each served task ends; a panic in it is dropped.
type OnTask func(ev OnTaskEvent)

// ServeOptions configures Toolkit.Serve. Client fulfils the A2A profile's
// tasks; A2A (or the toolkit's "a2a" config block) turns that profile on,
// MCP (or the "mcpServer" block) the MCP one; OnCall hears each MCP
// tools/call.
type ServeOptions struct {
	Client *Client
	A2A    *A2AConfig
	OnTask OnTask
	MCP    *MCPServeConfig
	OnCall OnCall
}

// ServeHandle is a running Serve: its base URL, and Stop.
type ServeHandle struct {
	// URL is the server's base URL, e.g. http://127.0.0.1:PORT.
	URL string

	server *http.Server
	cancel context.CancelFunc
	once   sync.Once
	err    error
}

// Stop ends the runs of served tasks and shuts the server down, waiting
// up to 5 s for requests in flight. It is safe to call twice.
func (h *ServeHandle) Stop() error {
	h.once.Do(func() {
		h.cancel()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		h.err = h.server.Shutdown(ctx)
	})
	return h.err
}

// Close is Stop.
func (h *ServeHandle) Close() error { return h.Stop() }

// serveBlocks are the profiles a decoded McpConfig's "a2a" and
// "mcpServer" blocks ask for; Serve uses them when its options do not.
type serveBlocks struct {
	a2a *A2AConfig
	mcp *MCPServeConfig
}

func serveBlocksOf(cfg any) serveBlocks {
	var out serveBlocks
	m, ok := cfg.(map[string]any)
	if !ok {
		return out
	}
	if v, ok := m["a2a"]; ok {
		out.a2a = &A2AConfig{}
		if b, err := json.Marshal(v); err == nil {
			_ = json.Unmarshal(b, out.a2a)
		}
	}
	if v, ok := m["mcpServer"]; ok {
		out.mcp = &MCPServeConfig{}
		if b, err := json.Marshal(v); err == nil {
			_ = json.Unmarshal(b, out.mcp)
		}
	}
	return out
}

// Serve serves the toolkit over HTTP on addr ("host:port"; port 0 picks a
// free one; no host is 127.0.0.1). With the A2A profile (opts.A2A, or the
// toolkit's "a2a" block) it publishes an agent card of the toolkit's
// skills and runs each SendMessage as a task through opts.Client — with
// the message's contextId as the conversation (Client.Ask), else a
// stateless Run; GetTask reports it. A run that halts for a person is the
// task state "input-required" (or "auth-required" for a sign-in) with the
// request's prompt; a message that names a task to continue is refused
// (CodeUnsupportedOperation), as this server starts a new task for every
// message. With the MCP profile it serves the toolkit's tools at
// /mcp. With neither, everything is 404. A bad JSON-RPC request — not
// JSON, not JSON-RPC 2.0, over 1 MiB or nested past 32 levels, an unknown
// method, missing params, an unknown task — is a JSON-RPC error with its
// code, and nothing runs. Under js/wasm it returns an error: a sandbox
// cannot listen on a port.
func (tk *Toolkit) Serve(addr string, opts ServeOptions) (*ServeHandle, error) {
	s := &serveHandler{tk: tk, client: opts.Client, a2a: opts.A2A, mcp: opts.MCP, onTask: opts.OnTask, onCall: opts.OnCall}
	if s.a2a == nil && tk != nil {
		s.a2a = tk.serve.a2a
	}
	if s.mcp == nil && tk != nil {
		s.mcp = tk.serve.mcp
	}
	if s.a2a != nil {
		if s.client == nil {
			return nil, errors.New("toolnexus: Serve: the A2A profile runs its tasks through ServeOptions.Client, which is nil")
		}
		store, err := ResolveStore(s.a2a.Store)
		if err != nil {
			return nil, err
		}
		s.store = store
	}
	if s.mcp != nil {
		s.mcpServer = s.mcpProfile()
	}
	host, port := splitAddr(addr)
	ln, err := listen(net.JoinHostPort(host, port))
	if err != nil {
		return nil, fmt.Errorf("toolnexus: Serve: %w", err)
	}
	if host == "0.0.0.0" || host == "::" {
		host = "127.0.0.1"
	}
	s.base = "http://" + net.JoinHostPort(host, strconv.Itoa(ln.Addr().(*net.TCPAddr).Port))
	ctx, cancel := context.WithCancel(context.Background())
	s.ctx = ctx
	srv := &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	return &ServeHandle{URL: s.base, server: srv, cancel: cancel}, nil
}

// splitAddr splits host:port at its last colon; no host is 127.0.0.1.
func splitAddr(addr string) (host, port string) {
	h, p, err := net.SplitHostPort(addr)
	if err != nil {
		return "127.0.0.1", addr
	}
	if h == "" {
		h = "127.0.0.1"
	}
	return h, p
}

// serveHandler is one Serve's handler. (Not "server": the port's in-package
// tests import mcp-go's server package under that name.)
type serveHandler struct {
	tk        *Toolkit
	client    *Client
	a2a       *A2AConfig
	mcp       *MCPServeConfig
	onTask    OnTask
	onCall    OnCall
	store     TaskStore
	mcpServer *mcpserve.Server
	base      string
	// ctx ends with Stop: the runs of served tasks end with the server.
	ctx context.Context
}

func (s *serveHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case s.mcpServer != nil && r.URL.Path == "/mcp":
		s.serveMCP(w, r)
	case s.a2a == nil:
		http.Error(w, "not found", http.StatusNotFound)
	case r.Method == http.MethodGet && r.URL.Path == cardPath:
		w.Header().Set("content-type", "application/json")
		_ = json.NewEncoder(w).Encode(BuildAgentCard(s.a2a, s.skills(), s.base+"/"))
	case r.Method == http.MethodPost:
		s.serveRPC(w, r)
	default:
		http.Error(w, "not found", http.StatusNotFound)
	}
}

// skills are the toolkit's skills, in the order they were found.
func (s *serveHandler) skills() []SkillInfo {
	var out []SkillInfo
	if set := s.tk.Skills(); set != nil {
		for _, sk := range set.Skills {
			out = append(out, SkillInfo{Name: sk.Name, Description: sk.Description, Location: sk.Path, Content: sk.Instructions})
		}
	}
	return out
}

// serveRPC answers one JSON-RPC request: SendMessage or GetTask.
func (s *serveHandler) serveRPC(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, maxRPCBody+1))
	if err != nil {
		writeRPC(w, "null", nil, &a2a.RPCError{Code: a2a.CodeInvalidRequest, Message: "Invalid Request: the body could not be read"})
		return
	}
	req, rerr := a2a.DecodeRequest(body, maxRPCBody)
	if rerr != nil {
		writeRPC(w, req.ID, nil, rerr)
		return
	}
	switch req.Method {
	case "SendMessage":
		s.sendMessage(w, req)
	case "GetTask":
		id := req.Params.Get("id")
		if id.Type != gjson.String || id.String() == "" {
			writeRPC(w, req.ID, nil, &a2a.RPCError{Code: a2a.CodeInvalidParams, Message: "Invalid params: id must be a task's id"})
			return
		}
		task, err := s.store.Get(id.String())
		switch {
		case err != nil:
			writeRPC(w, req.ID, nil, &a2a.RPCError{Code: a2a.CodeInternalError, Message: "Internal error: the task store: " + err.Error()})
		case task == nil:
			writeRPC(w, req.ID, nil, &a2a.RPCError{Code: a2a.CodeTaskNotFound, Message: "Task not found: " + id.String()})
		default:
			writeRPC(w, req.ID, *task, nil)
		}
	default:
		writeRPC(w, req.ID, nil, &a2a.RPCError{Code: a2a.CodeMethodNotFound, Message: "Method not found: " + req.Method})
	}
}

// sendMessage stores a submitted task, starts its run and answers with it
// at once.
func (s *serveHandler) sendMessage(w http.ResponseWriter, req a2a.RPCRequest) {
	msg := req.Params.Get("message")
	if !msg.IsObject() {
		writeRPC(w, req.ID, nil, &a2a.RPCError{Code: a2a.CodeInvalidParams, Message: "Invalid params: message is required"})
		return
	}
	if id := msg.Get("taskId").String(); id != "" {
		// The Go port's server runs every message as a new task; a reply to
		// one that waits for input would run as an unrelated task, so it is
		// refused instead.
		writeRPC(w, req.ID, nil, &a2a.RPCError{Code: a2a.CodeUnsupportedOperation,
			Message: "Unsupported operation: this server does not continue a task (" + id + "); send a new message"})
		return
	}
	text, contextID := a2a.MessageText(req.Params), msg.Get("contextId").String()
	task := A2ATask{ID: newUUID(), ContextID: contextID, Status: A2ATaskStatus{State: a2a.StateSubmitted}}
	if err := s.store.Save(task); err != nil {
		writeRPC(w, req.ID, nil, &a2a.RPCError{Code: a2a.CodeInternalError, Message: "Internal error: the task store: " + err.Error()})
		return
	}
	go s.fulfil(task.ID, text, contextID)
	writeRPC(w, req.ID, task, nil)
}

// fulfil runs a task: working, then completed (the run's text as an
// artifact), input-required or auth-required (the request's prompt), or
// failed (the error). A panic fails the task; nothing takes the server
// down.
func (s *serveHandler) fulfil(id, text, contextID string) {
	defer func() {
		if p := recover(); p != nil {
			_ = s.store.Save(A2ATask{ID: id, ContextID: contextID, Status: agentStatus(a2a.StateFailed, fmt.Sprintf("the run panicked: %v", p))})
		}
	}()
	_ = s.store.Save(A2ATask{ID: id, ContextID: contextID, Status: A2ATaskStatus{State: a2a.StateWorking}})
	var rr core.RunResult
	var err error
	if contextID != "" {
		rr, err = s.client.Ask(s.ctx, text, s.tk, contextID)
	} else {
		rr, err = s.client.Run(s.ctx, text, s.tk)
	}
	state := a2a.StateOf(rr.Status, rr.Pending, err)
	task := A2ATask{ID: id, ContextID: contextID}
	var result *core.RunResult
	switch state {
	case a2a.StateFailed:
		task.Status = agentStatus(state, err.Error())
	case a2a.StateInputRequired, a2a.StateAuthRequired:
		result, task.Status = &rr, agentStatus(state, rr.Pending.Prompt)
	default:
		out := rr.Text
		result, task.Status = &rr, A2ATaskStatus{State: state}
		task.Artifacts = []A2AArtifact{{ArtifactID: newUUID(), Parts: []A2APart{{Kind: "text", Text: &out}}}}
	}
	_ = s.store.Save(task)
	if s.onTask != nil {
		func() {
			defer func() { _ = recover() }()
			s.onTask(OnTaskEvent{ID: id, Task: task, Result: result, State: state})
		}()
	}
}

func agentStatus(state, text string) A2ATaskStatus {
	return A2ATaskStatus{State: state, Message: &A2AMessage{Role: "agent", Parts: []A2APart{{Kind: "text", Text: &text}}}}
}

// rpcResponse is a JSON-RPC response in the Go port's field order.
type rpcResponse struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  any             `json:"result,omitempty"`
	Error   *a2a.RPCError   `json:"error,omitempty"`
}

func writeRPC(w http.ResponseWriter, id string, result any, e *a2a.RPCError) {
	w.Header().Set("content-type", "application/json")
	_ = json.NewEncoder(w).Encode(rpcResponse{JSONRPC: "2.0", ID: json.RawMessage(id), Result: result, Error: e})
}

// newUUID is a random (version 4) UUID: a task's or an artifact's id.
func newUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}
