package core

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tidwall/gjson"
)

// MCPStatus is one configured MCP server's state, as McpStatus reports it.
type MCPStatus struct {
	// Status is "connected", "disabled" or "failed".
	Status string `json:"status"`
	// Reason says why a server failed. It never holds header values.
	Reason string `json:"reason,omitempty"`
	// Tools counts the server's tools added to the toolkit.
	Tools int `json:"tools"`
	// Transport is "streamable-http" or "sse" (the older HTTP+SSE) once
	// connected.
	Transport string `json:"transport,omitempty"`
	// Hidden names the server's tools not offered to the model: those that
	// require task augmentation (execution.taskSupport "required").
	Hidden []string `json:"hidden,omitempty"`
}

// The values of MCPStatus.Status.
const (
	MCPConnected = "connected"
	MCPDisabled  = "disabled"
	MCPFailed    = "failed"
)

// SourceMCP marks tools that come from a remote MCP server.
const SourceMCP ToolSource = "mcp"

// mcpServer is one JSON-RPC session with a configured server.
type mcpServer struct {
	cfg     MCPServerConfig
	conn    mcpConn
	status  MCPStatus
	tools   []Tool
	waitFor func(context.Context, Request) (Answer, error)
	nextID  atomic.Int64
	asks    atomic.Int64 // elicitation requests seen, for Request ids
	// closeOnce ends the session once, however often Close is called;
	// closed then refuses calls (rather than opening a new session).
	closeOnce sync.Once
	closed    atomic.Bool
}

func (s *mcpServer) timeout() time.Duration {
	return time.Duration(s.cfg.TimeoutMs) * time.Millisecond
}

// fail records a failed server; err is wrapped with the phase it ended in.
func (s *mcpServer) fail(phase string, err error) {
	if errors.Is(err, context.DeadlineExceeded) {
		err = fmt.Errorf("timed out after %d ms", s.cfg.TimeoutMs)
	}
	s.status = MCPStatus{Status: MCPFailed, Reason: phase + ": " + err.Error()}
	if s.conn != nil {
		ctx, cancel := context.WithTimeout(context.Background(), s.timeout())
		s.conn.close(ctx)
		cancel()
		s.conn = nil
	}
}

// connect runs the handshake: initialize (falling back to HTTP+SSE when the
// server refuses a streamable POST), notifications/initialized, and the
// paged tools/list. Each phase is bounded by the server's timeout.
func (s *mcpServer) connect(parent context.Context, tr Transport, vars map[string]string) {
	switch {
	case s.cfg.Disabled:
		s.status = MCPStatus{Status: MCPDisabled}
		return
	case !s.cfg.Remote:
		s.status = MCPStatus{Status: MCPFailed, Reason: "local (stdio) servers cannot run here: give the server a url (remote MCP)"}
		return
	case !httpScheme(s.cfg.URL):
		s.status = MCPStatus{Status: MCPFailed, Reason: fmt.Sprintf("invalid url %q (want http or https)", s.cfg.URL)}
		return
	}
	headers := make(map[string]string, len(s.cfg.Headers))
	for k, v := range s.cfg.Headers {
		filled, err := fillVariables(v, vars)
		if err != nil {
			s.fail("config", fmt.Errorf("header %s: %w", k, err))
			return
		}
		headers[k] = filled
	}
	phase := func() (context.Context, context.CancelFunc) { return context.WithTimeout(parent, s.timeout()) }

	var err error
	if !s.cfg.LegacySSE {
		s.conn, s.status.Transport = &mcpStreamable{tr: tr, url: s.cfg.URL, headers: headers, serve: s.serve}, "streamable-http"
		ctx, cancel := phase()
		err = s.initialize(ctx)
		cancel()
		if he, ok := errors.AsType[*mcpHTTPError](err); ok && (he.Status == 400 || he.Status == 404 || he.Status == 405) {
			// A server of the 2024-11-05 protocol answers the POST with a
			// 4xx: try its GET event stream.
			s.conn = nil
			if err = s.dialLegacy(phase, tr, headers); err != nil {
				err = fmt.Errorf("streamable HTTP: %v; HTTP+SSE fallback: %w", he, err)
			}
		}
	} else {
		err = s.dialLegacy(phase, tr, headers)
	}
	if err != nil {
		s.fail("initialize", err)
		return
	}
	ctx, cancel := phase()
	err = s.conn.send(ctx, mcpMessage(0, "notifications/initialized", ""))
	cancel()
	if err != nil {
		s.fail("initialized notification", err)
		return
	}
	ctx, cancel = phase()
	defer cancel()
	if err := s.listTools(ctx); err != nil {
		s.fail("tools/list", err)
		return
	}
	s.status.Status = MCPConnected
	s.status.Tools = len(s.tools)
	if st, ok := s.conn.(*mcpStreamable); ok && s.waitFor != nil {
		st.listen(s.timeout())
	}
}

func (s *mcpServer) dialLegacy(phase func() (context.Context, context.CancelFunc), tr Transport, headers map[string]string) error {
	ctx, cancel := phase()
	defer cancel()
	lc, err := dialLegacy(ctx, tr, s.cfg.URL, headers, s.serve)
	if err != nil {
		return err
	}
	s.conn, s.status.Transport = lc, "sse"
	return s.initialize(ctx)
}

// initialize opens the session; on streamable HTTP the negotiated version
// then rides every request as Mcp-Protocol-Version.
func (s *mcpServer) initialize(ctx context.Context) error {
	caps := "{}"
	if s.waitFor != nil {
		caps = `{"elicitation":{"form":{},"url":{}}}`
	}
	res, err := s.call(ctx, "initialize", `{"protocolVersion":"`+mcpProtocol+`","capabilities":`+caps+`,"clientInfo":{"name":"toolnexus-wasm","version":"0.1.0"}}`)
	if st, ok := s.conn.(*mcpStreamable); ok && err == nil {
		st.mu.Lock()
		st.protocol = res.Get("protocolVersion").String()
		st.mu.Unlock()
	}
	return err
}

// call sends one request (params is JSON text, "" for none) and returns its
// result, or the JSON-RPC error as a Go error.
func (s *mcpServer) call(ctx context.Context, method, params string) (gjson.Result, error) {
	if s.closed.Load() {
		return gjson.Result{}, errors.New("the toolkit was closed")
	}
	if s.conn == nil {
		return gjson.Result{}, errors.New("not connected")
	}
	id := s.nextID.Add(1)
	m, err := s.conn.request(ctx, id, mcpMessage(id, method, params))
	if st, ok := s.conn.(*mcpStreamable); ok && method != "initialize" && st.expired(err) {
		// The server forgot the session (a restart, say): start a new
		// one and send the request again, once.
		if err = s.initialize(ctx); err == nil {
			if err = s.conn.send(ctx, mcpMessage(0, "notifications/initialized", "")); err == nil {
				if s.waitFor != nil {
					st.listen(s.timeout())
				}
				id = s.nextID.Add(1)
				m, err = s.conn.request(ctx, id, mcpMessage(id, method, params))
			}
		}
	}
	if err != nil {
		s.notifyCancelled(ctx, id, method)
		return gjson.Result{}, err
	}
	if e := m.Get("error"); e.Exists() {
		return gjson.Result{}, fmt.Errorf("MCP error %d: %s", e.Get("code").Int(), e.Get("message").String())
	}
	return m.Get("result"), nil
}

// mcpMessage encodes a JSON-RPC request, or a notification when id is 0;
// params is JSON text ("" for none). Built by hand: the messages are small
// and fixed, and map literals cost the wasm build more than this.
func mcpMessage(id int64, method, params string) []byte {
	b := []byte(`{"jsonrpc":"2.0",`)
	if id != 0 {
		b = append(b, `"id":`...)
		b = strconv.AppendInt(b, id, 10)
		b = append(b, ',')
	}
	b = append(b, `"method":`...)
	b = appendJSONString(b, method)
	if params != "" {
		b = append(b, `,"params":`...)
		b = append(b, params...)
	}
	return append(b, '}')
}

// mcpReply encodes the reply to a server request: result (JSON text) or,
// when errMessage is set, a method-not-found error.
func mcpReply(id gjson.Result, result, errMessage string) []byte {
	b := append([]byte(`{"jsonrpc":"2.0","id":`), id.Raw...)
	if errMessage != "" {
		b = append(b, `,"error":{"code":-32601,"message":`...)
		b = appendJSONString(b, errMessage)
		return append(b, "}}"...)
	}
	b = append(b, `,"result":`...)
	b = append(b, result...)
	return append(b, '}')
}

// serve answers the server's own requests: ping, elicitation/create.
func (s *mcpServer) serve(ctx context.Context, m gjson.Result) []byte {
	id := m.Get("id")
	switch m.Get("method").String() {
	case "ping":
		return mcpReply(id, "{}", "")
	case "elicitation/create":
		if s.waitFor == nil {
			return mcpReply(id, "", "this client does not support elicitation")
		}
		return mcpReply(id, s.elicit(ctx, m.Get("params")), "")
	}
	return mcpReply(id, "", "method not found: "+m.Get("method").String())
}

// addMCP connects the servers of opts.MCP in parallel and registers their
// tools after the ones already there, in configuration order. Only an
// invalid configuration is an error: a server that fails is reported by
// McpStatus and the toolkit builds without it.
func (tk *Toolkit) addMCP(ctx context.Context, opts Options) error {
	cfgs, err := parseMCPConfig(opts.MCP)
	if err != nil || len(cfgs) == 0 {
		return err
	}
	tr := opts.Transport
	if tr == nil {
		tr = DefaultTransport()
	}
	if opts.WaitForContext == nil && opts.WaitFor != nil {
		opts.WaitForContext = func(_ context.Context, r Request) (Answer, error) { return opts.WaitFor(r) }
	}
	servers := make([]*mcpServer, len(cfgs))
	var wg sync.WaitGroup
	for i, cfg := range cfgs {
		s := &mcpServer{cfg: cfg, waitFor: opts.WaitForContext}
		servers[i] = s
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if p := recover(); p != nil {
					s.fail("connect", fmt.Errorf("internal error: %v", p))
				}
			}()
			s.connect(ctx, tr, opts.Variables)
		}()
	}
	wg.Wait()
	for _, s := range servers {
		added := 0
		for _, t := range s.tools {
			if _, dup := tk.Get(t.Name); dup {
				continue
			}
			if tk.Register(t) == nil {
				added++
			}
		}
		if s.status.Status == MCPConnected {
			s.status.Tools = added
		}
	}
	tk.mu.Lock()
	tk.mcp = append(tk.mcp, servers...)
	tk.mu.Unlock()
	return nil
}

// McpStatus reports each configured MCP server by name: "connected" (with
// its tool count), "disabled", or "failed" with the reason.
//
//	tk, _ := CreateToolkit(ctx, Options{MCP: []byte(`{"mcpServers": {"docs": {"url": "https://example.com/mcp"}}}`)})
//	tk.McpStatus() // {"docs": {Status: "connected", Tools: 3, Transport: "streamable-http"}}
func (tk *Toolkit) McpStatus() map[string]MCPStatus {
	out := map[string]MCPStatus{}
	if tk == nil {
		return out
	}
	tk.mu.RLock()
	defer tk.mu.RUnlock()
	for _, s := range tk.mcp {
		out[s.cfg.Name] = s.status
	}
	return out
}

// closeMCP ends every MCP session, in parallel, each bounded by its
// server's timeout.
func (tk *Toolkit) closeMCP() {
	tk.mu.RLock()
	servers := tk.mcp
	tk.mu.RUnlock()
	var wg sync.WaitGroup
	for _, s := range servers {
		if s.conn == nil {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { _ = recover() }()
			s.closeOnce.Do(func() {
				s.closed.Store(true)
				ctx, cancel := context.WithTimeout(context.Background(), s.timeout())
				defer cancel()
				s.conn.close(ctx)
			})
		}()
	}
	wg.Wait()
}
