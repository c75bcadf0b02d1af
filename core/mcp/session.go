package mcp

import (
	"context"
	"errors"
	fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tidwall/gjson"
	"github.com/toolnexus/wasm/core/tool"
	"github.com/toolnexus/wasm/internal/jsonx"
)

// mcpServer is one JSON-RPC session with a configured server.
type mcpServer struct {
	cfg     tool.MCPServerConfig
	conn    mcpConn
	status  tool.MCPStatus
	tools   []tool.Tool
	listed  []string // every tool listed (its JSON), before the filter
	waitFor func(context.Context, tool.Request) (tool.Answer, error)
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
	s.status = tool.MCPStatus{Status: tool.MCPFailed, Reason: phase + ": " + err.Error()}
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
func (s *mcpServer) connect(parent context.Context, tr tool.Transport, fill func(string) (string, error)) {
	switch {
	case s.cfg.Disabled:
		s.status = tool.MCPStatus{Status: tool.MCPDisabled}
		return
	case !s.cfg.Remote:
		s.status = tool.MCPStatus{Status: tool.MCPFailed, Reason: "local (stdio) servers cannot run here: give the server a url (remote MCP)"}
		return
	case !tool.IsHTTPURL(s.cfg.URL):
		s.status = tool.MCPStatus{Status: tool.MCPFailed, Reason: fmt.Sprintf("invalid url %q (want http or https)", s.cfg.URL)}
		return
	}
	headers := make(map[string]string, len(s.cfg.Headers))
	for k, v := range s.cfg.Headers {
		filled, err := fillHeader(fill, v)
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
	s.status.Status = tool.MCPConnected
	s.status.Tools = len(s.tools)
	if st, ok := s.conn.(*mcpStreamable); ok && s.waitFor != nil {
		st.listen(s.timeout())
	}
}

func (s *mcpServer) dialLegacy(phase func() (context.Context, context.CancelFunc), tr tool.Transport, headers map[string]string) error {
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
	b = jsonx.AppendString(b, method)
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
		b = jsonx.AppendString(b, errMessage)
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

func init() { tool.RegisterMCP(tool.MCPProvider{Parse: Parse, Connect: Connect}) }

// Connect connects the servers of cfgs in parallel, each bounded by its
// timeout. A server that fails is reported by its Status, never as an error,
// so that a toolkit builds without it.
func Connect(ctx context.Context, cfgs []tool.MCPServerConfig, env tool.MCPEnv) []tool.MCPServer {
	if env.Transport == nil {
		env.Transport = tool.DefaultTransport()
	}
	servers := make([]tool.MCPServer, len(cfgs))
	var wg sync.WaitGroup
	for i, cfg := range cfgs {
		s := &mcpServer{cfg: cfg, waitFor: env.WaitFor}
		servers[i] = s
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if p := recover(); p != nil {
					s.fail("connect", fmt.Errorf("internal error: %v", p))
				}
			}()
			s.connect(ctx, env.Transport, env.Fill)
		}()
	}
	wg.Wait()
	return servers
}

// Name implements tool.MCPServer.
func (s *mcpServer) Name() string { return s.cfg.Name }

// Tools implements tool.MCPServer.
func (s *mcpServer) Tools() []tool.Tool { return s.tools }

// Status implements tool.MCPServer.
func (s *mcpServer) Status() tool.MCPStatus { return s.status }

// Close implements tool.MCPServer: it ends the session once, bounded by
// the server's timeout.
func (s *mcpServer) Close() {
	if s.conn == nil {
		return
	}
	defer func() { _ = recover() }()
	s.closeOnce.Do(func() {
		s.closed.Store(true)
		ctx, cancel := context.WithTimeout(context.Background(), s.timeout())
		defer cancel()
		s.conn.close(ctx)
	})
}

// fillHeader fills ${NAME} in a header value through core's filler; with
// none, a value is used as it is.
func fillHeader(fill func(string) (string, error), v string) (string, error) {
	if fill == nil {
		return v, nil
	}
	return fill(v)
}
