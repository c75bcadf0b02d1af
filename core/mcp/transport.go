package mcp

import (
	"context"
	"errors"
	fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx
	"github.com/toolnexus/wasm/internal/sse"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/tidwall/gjson"
	"github.com/toolnexus/wasm/core/tool"
	"github.com/toolnexus/wasm/internal/jsonx"
)

// mcpConn carries JSON-RPC messages to one MCP server: streamable HTTP
// (mcpStreamable) or the older HTTP+SSE transport (mcpLegacy).
type mcpConn interface {
	// request sends a request and returns the response message with the
	// same id. Requests the server sends meanwhile go to the serve function
	// the conn was built with, and its reply goes back to the server.
	request(ctx context.Context, id int64, msg []byte) (gjson.Result, error)
	// send posts a notification or a reply; no response is expected.
	send(ctx context.Context, msg []byte) error
	// close ends the session (DELETE with Mcp-Session-Id where supported).
	close(ctx context.Context)
}

// mcpServe answers one server-to-client request; nil means no reply.
type mcpServe func(ctx context.Context, msg gjson.Result) []byte

const (
	mcpMaxMessage = 8 << 20
	mcpProtocol   = "2025-11-25"
)

// mcpHTTPError is a non-2xx reply; Status decides the legacy fallback.
type mcpHTTPError struct {
	Status int
	Body   string
}

func (e *mcpHTTPError) Error() string {
	if e.Body == "" {
		return fmt.Sprintf("HTTP %d", e.Status)
	}
	return fmt.Sprintf("HTTP %d: %s", e.Status, e.Body)
}

func ok2xx(status int) bool { return status >= 200 && status <= 299 }

func isEventStream(resp *tool.HTTPResponse) bool {
	return strings.HasPrefix(strings.ToLower(resp.Header["content-type"]), "text/event-stream")
}

// mcpDo sends one request with the configured headers plus extra, and
// turns a non-2xx reply into an *mcpHTTPError (with a short excerpt of its
// body).
func mcpDo(ctx context.Context, tr tool.Transport, method, url string, headers map[string]string, extra []string, body []byte) (*tool.HTTPResponse, error) {
	h := make(map[string]string, len(headers)+len(extra)/2)
	for k, v := range headers {
		h[k] = v
	}
	for i := 0; i+1 < len(extra); i += 2 {
		if extra[i+1] != "" {
			h[extra[i]] = extra[i+1]
		}
	}
	resp, err := tr.Do(ctx, &tool.HTTPRequest{Method: method, URL: url, Header: h, Body: body})
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", method, url, err)
	}
	if !ok2xx(resp.Status) {
		defer resp.Body.Close()
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 300))
		return nil, &mcpHTTPError{Status: resp.Status, Body: strings.TrimSpace(string(b))}
	}
	return resp, nil
}

// isResponseTo reports whether m is the response (result or error) to id.
func isResponseTo(m gjson.Result, id int64) bool {
	return !m.Get("method").Exists() && m.Get("id").Type == gjson.Number && m.Get("id").Int() == id &&
		(m.Get("result").Exists() || m.Get("error").Exists())
}

// isServerRequest reports whether m is a request (method and id), as
// opposed to a notification or a response.
func isServerRequest(m gjson.Result) bool {
	return m.Get("method").Exists() && m.Get("id").Exists()
}

// eachMessage calls fn for each JSON-RPC message in data (one, or a batch)
// until fn returns true; it reports whether fn did. Text that is not JSON
// is skipped; text nested deeper than MaxJSONDepth is an error, found
// before anything recursive reads it.
func eachMessage(data []byte, fn func(gjson.Result) bool) (bool, error) {
	if err := jsonx.CheckDepth(data, jsonx.MaxDepth); err != nil {
		return false, err
	}
	if !gjson.ValidBytes(data) {
		return false, nil
	}
	v := gjson.ParseBytes(data)
	if !v.IsArray() {
		return fn(v), nil
	}
	for _, m := range v.Array() {
		if fn(m) {
			return true, nil
		}
	}
	return false, nil
}

// readEvents reads an event stream until fn returns true for a message
// (nil) or the stream ends (its error). The "endpoint" event of the
// HTTP+SSE transport comes to fn as a string Result named by event.
func readEvents(body io.Reader, fn func(event string, m gjson.Result) bool) error {
	events := sse.NewReader(body, mcpMaxMessage)
	for {
		event, data, err := events.Next()
		if err != nil {
			return err
		}
		if event == "endpoint" {
			if fn(event, gjson.Result{Type: gjson.String, Str: strings.TrimSpace(string(data))}) {
				return nil
			}
			continue
		}
		if found, err := eachMessage(data, func(m gjson.Result) bool { return fn("message", m) }); found || err != nil {
			return err
		}
	}
}

// answer serves a server request on its own goroutine (its answer may wait
// for a person) and sends the reply.
func answer(ctx context.Context, serve mcpServe, send func(context.Context, []byte) error, m gjson.Result) {
	go func() {
		if reply := serve(ctx, m); reply != nil {
			_ = send(ctx, reply)
		}
	}()
}

// mcpStreamable is the streamable HTTP transport: every message is a POST
// to one URL; the reply is JSON or an SSE stream that may carry server
// requests before the response.
type mcpStreamable struct {
	tr      tool.Transport
	url     string
	headers map[string]string
	serve   mcpServe

	mu        sync.Mutex
	sessionID string
	protocol  string
	stop      func() // ends the listen stream
}

func (c *mcpStreamable) do(ctx context.Context, method, accept string, body []byte) (*tool.HTTPResponse, error) {
	c.mu.Lock()
	extra := []string{"content-type", "application/json", "accept", accept, "mcp-session-id", c.sessionID, "mcp-protocol-version", c.protocol}
	c.mu.Unlock()
	return mcpDo(ctx, c.tr, method, c.url, c.headers, extra, body)
}

func (c *mcpStreamable) send(ctx context.Context, msg []byte) error {
	resp, err := c.do(ctx, "POST", "application/json, text/event-stream", msg)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func (c *mcpStreamable) request(ctx context.Context, id int64, msg []byte) (gjson.Result, error) {
	resp, err := c.do(ctx, "POST", "application/json, text/event-stream", msg)
	if err != nil {
		return gjson.Result{}, err
	}
	defer resp.Body.Close()
	if sid := resp.Header["mcp-session-id"]; sid != "" {
		c.mu.Lock()
		c.sessionID = sid
		c.mu.Unlock()
	}
	var found gjson.Result
	handle := func(_ string, m gjson.Result) bool {
		if isResponseTo(m, id) {
			found = m
			return true
		}
		if isServerRequest(m) {
			answer(ctx, c.serve, c.send, m)
		}
		return false
	}
	if isEventStream(resp) {
		if err := readEvents(resp.Body, handle); err != nil {
			if err == io.EOF || err == io.ErrUnexpectedEOF {
				err = errors.New("the event stream ended before the response")
			}
			return gjson.Result{}, fmt.Errorf("read event stream: %w", err)
		}
		return found, nil
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, mcpMaxMessage))
	if err != nil {
		return gjson.Result{}, fmt.Errorf("read reply: %w", err)
	}
	ok, err := eachMessage(body, func(m gjson.Result) bool { return handle("", m) })
	if err != nil {
		return gjson.Result{}, err
	}
	if !ok {
		return gjson.Result{}, fmt.Errorf("the reply holds no response to request %d", id)
	}
	return found, nil
}

// listen opens the optional GET event stream, on which a server sends the
// requests that belong to no POST (an elicitation that is not on its
// tools/call's own stream). Opening it is bounded by timeout; a server
// without one answers 405, and any failure only means there is no stream.
func (c *mcpStreamable) listen(timeout time.Duration) {
	ctx, cancel := context.WithCancel(context.Background())
	var body io.Closer
	// stop closes the body before it cancels: an open stream then ends
	// quietly, where an aborted fetch would leave a rejected promise in JS.
	stop := func() {
		c.mu.Lock()
		b := body
		c.mu.Unlock()
		if b != nil {
			b.Close()
		}
		cancel()
	}
	c.mu.Lock()
	c.stop = stop
	c.mu.Unlock()
	go func() {
		defer cancel()
		timer := time.AfterFunc(timeout, cancel)
		resp, err := c.do(ctx, "GET", "text/event-stream", nil)
		timer.Stop()
		if err != nil {
			return
		}
		c.mu.Lock()
		body = resp.Body
		c.mu.Unlock()
		defer resp.Body.Close()
		if isEventStream(resp) {
			_ = readEvents(resp.Body, func(_ string, m gjson.Result) bool {
				if isServerRequest(m) {
					answer(ctx, c.serve, c.send, m)
				}
				return false
			})
		}
	}()
}

// expired reports whether err says the server no longer knows the session
// (404 to a request that carried Mcp-Session-Id); it then forgets the
// session and stops its listen stream, so that the next initialize starts
// afresh.
func (c *mcpStreamable) expired(err error) bool {
	if he, ok := errors.AsType[*mcpHTTPError](err); !ok || he.Status != 404 {
		return false
	}
	c.mu.Lock()
	had, stop := c.sessionID != "", c.stop
	c.sessionID, c.protocol, c.stop = "", "", nil
	c.mu.Unlock()
	if stop != nil {
		stop()
	}
	return had
}

func (c *mcpStreamable) close(ctx context.Context) {
	c.mu.Lock()
	sid, stop := c.sessionID, c.stop
	c.mu.Unlock()
	if stop != nil {
		stop()
	}
	if sid == "" {
		return
	}
	if resp, err := c.do(ctx, "DELETE", "application/json", nil); err == nil {
		resp.Body.Close()
	}
}
