package core

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/tidwall/gjson"
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
	mcpMaxMessage   = 8 << 20
	mcpProtocol     = "2025-11-25"
	mcpAcceptHeader = "application/json, text/event-stream"
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

// httpStatusError reads a short excerpt of a failed reply's body.
func httpStatusError(resp *HTTPResponse) error {
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 300))
	return &mcpHTTPError{Status: resp.Status, Body: strings.TrimSpace(string(b))}
}

func ok2xx(status int) bool { return status >= 200 && status <= 299 }

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

// mcpStreamable is the streamable HTTP transport: every message is a POST
// to one URL; the reply is JSON or an SSE stream that may carry server
// requests before the response.
type mcpStreamable struct {
	tr      Transport
	url     string
	headers map[string]string
	serve   mcpServe

	mu        sync.Mutex
	sessionID string
	protocol  string
	stop      func() // ends the listen stream
}

func (c *mcpStreamable) header(accept string) map[string]string {
	h := make(map[string]string, len(c.headers)+4)
	for k, v := range c.headers {
		h[k] = v
	}
	h["content-type"] = "application/json"
	h["accept"] = accept
	c.mu.Lock()
	if c.sessionID != "" {
		h["mcp-session-id"] = c.sessionID
	}
	if c.protocol != "" {
		h["mcp-protocol-version"] = c.protocol
	}
	c.mu.Unlock()
	return h
}

func (c *mcpStreamable) post(ctx context.Context, body []byte) (*HTTPResponse, error) {
	resp, err := c.tr.Do(ctx, &HTTPRequest{Method: "POST", URL: c.url, Header: c.header(mcpAcceptHeader), Body: body})
	if err != nil {
		return nil, fmt.Errorf("POST %s: %w", c.url, err)
	}
	if !ok2xx(resp.Status) {
		defer resp.Body.Close()
		return nil, httpStatusError(resp)
	}
	return resp, nil
}

func (c *mcpStreamable) send(ctx context.Context, msg []byte) error {
	resp, err := c.post(ctx, msg)
	if err != nil {
		return err
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, mcpMaxMessage))
	return resp.Body.Close()
}

func (c *mcpStreamable) request(ctx context.Context, id int64, msg []byte) (gjson.Result, error) {
	resp, err := c.post(ctx, msg)
	if err != nil {
		return gjson.Result{}, err
	}
	defer resp.Body.Close()
	if sid := resp.Header["mcp-session-id"]; sid != "" {
		c.mu.Lock()
		c.sessionID = sid
		c.mu.Unlock()
	}
	if strings.HasPrefix(strings.ToLower(resp.Header["content-type"]), "text/event-stream") {
		sse := newSSEReader(resp.Body, mcpMaxMessage)
		for {
			_, data, err := sse.next()
			if err != nil {
				if err == io.EOF || err == io.ErrUnexpectedEOF {
					err = errors.New("the event stream ended before the response")
				}
				return gjson.Result{}, fmt.Errorf("read event stream: %w", err)
			}
			if m, done := c.handle(ctx, data, id); done {
				return m, nil
			}
		}
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, mcpMaxMessage))
	if err != nil {
		return gjson.Result{}, fmt.Errorf("read reply: %w", err)
	}
	if m, done := c.handle(ctx, body, id); done {
		return m, nil
	}
	return gjson.Result{}, fmt.Errorf("the reply holds no response to request %d", id)
}

// handle looks at one message (or batch) of a reply: it serves server
// requests and reports the response to id when it is there.
func (c *mcpStreamable) handle(ctx context.Context, data []byte, id int64) (gjson.Result, bool) {
	if !gjson.ValidBytes(data) {
		return gjson.Result{}, false
	}
	var found gjson.Result
	each(gjson.ParseBytes(data), func(m gjson.Result) {
		switch {
		case isResponseTo(m, id):
			found = m
		case isServerRequest(m):
			if reply := c.serve(ctx, m); reply != nil {
				_ = c.send(ctx, reply)
			}
		}
	})
	return found, found.Exists()
}

// each calls fn for v, or for each element when v is a batch.
func each(v gjson.Result, fn func(gjson.Result)) {
	if v.IsArray() {
		v.ForEach(func(_, m gjson.Result) bool { fn(m); return true })
		return
	}
	fn(v)
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
		resp, err := c.tr.Do(ctx, &HTTPRequest{Method: "GET", URL: c.url, Header: c.header("text/event-stream")})
		timer.Stop()
		if err != nil {
			return
		}
		c.mu.Lock()
		body = resp.Body
		c.mu.Unlock()
		defer resp.Body.Close()
		if !ok2xx(resp.Status) || !strings.HasPrefix(strings.ToLower(resp.Header["content-type"]), "text/event-stream") {
			return
		}
		sse := newSSEReader(resp.Body, mcpMaxMessage)
		for {
			_, data, err := sse.next()
			if err != nil {
				return
			}
			if !gjson.ValidBytes(data) {
				continue
			}
			each(gjson.ParseBytes(data), func(m gjson.Result) {
				if isServerRequest(m) {
					go func() {
						if reply := c.serve(ctx, m); reply != nil {
							_ = c.send(ctx, reply)
						}
					}()
				}
			})
		}
	}()
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
	resp, err := c.tr.Do(ctx, &HTTPRequest{Method: "DELETE", URL: c.url, Header: c.header(mcpAcceptHeader)})
	if err == nil {
		resp.Body.Close()
	}
}

// mcpLegacy is the HTTP+SSE transport of protocol 2024-11-05: a GET opens
// an event stream whose "endpoint" event names the URL to POST messages
// to; every response arrives on the stream.
type mcpLegacy struct {
	tr       Transport
	headers  map[string]string
	endpoint string
	serve    mcpServe
	cancel   context.CancelFunc

	mu      sync.Mutex
	pending map[int64]chan gjson.Result
	err     error // why the stream ended
}

// dialLegacy opens the stream and waits, within ctx, for the endpoint.
func dialLegacy(ctx context.Context, tr Transport, url string, headers map[string]string, serve mcpServe) (*mcpLegacy, error) {
	streamCtx, cancel := context.WithCancel(context.Background())
	c := &mcpLegacy{tr: tr, headers: headers, serve: serve, cancel: cancel, pending: map[int64]chan gjson.Result{}}
	h := make(map[string]string, len(headers)+1)
	for k, v := range headers {
		h[k] = v
	}
	h["accept"] = "text/event-stream"
	type opened struct {
		resp *HTTPResponse
		err  error
	}
	openc := make(chan opened, 1)
	go func() {
		resp, err := tr.Do(streamCtx, &HTTPRequest{Method: "GET", URL: url, Header: h})
		openc <- opened{resp, err}
	}()
	var resp *HTTPResponse
	select {
	case o := <-openc:
		if o.err != nil {
			cancel()
			return nil, fmt.Errorf("GET %s: %w", url, o.err)
		}
		resp = o.resp
	case <-ctx.Done():
		cancel()
		return nil, ctx.Err()
	}
	if !ok2xx(resp.Status) || !strings.HasPrefix(strings.ToLower(resp.Header["content-type"]), "text/event-stream") {
		defer resp.Body.Close()
		cancel()
		if ok2xx(resp.Status) {
			return nil, fmt.Errorf("GET %s: not an event stream", url)
		}
		return nil, httpStatusError(resp)
	}
	endpoint := make(chan string, 1)
	go c.read(streamCtx, resp.Body, url, endpoint)
	select {
	case ep, ok := <-endpoint:
		if !ok {
			return nil, fmt.Errorf("the event stream ended before the endpoint event: %v", c.streamErr())
		}
		c.endpoint = ep
		return c, nil
	case <-ctx.Done():
		cancel()
		return nil, ctx.Err()
	}
}

// read dispatches the stream's events until it ends.
func (c *mcpLegacy) read(ctx context.Context, body io.ReadCloser, base string, endpoint chan<- string) {
	defer body.Close()
	sse := newSSEReader(body, mcpMaxMessage)
	sent := false
	var err error
	for {
		var ev string
		var data []byte
		if ev, data, err = sse.next(); err != nil {
			break
		}
		if ev == "endpoint" {
			if !sent {
				endpoint <- resolveURL(base, strings.TrimSpace(string(data)))
				sent = true
			}
			continue
		}
		if !gjson.ValidBytes(data) {
			continue
		}
		each(gjson.ParseBytes(data), func(m gjson.Result) {
			if isServerRequest(m) {
				go func() {
					if reply := c.serve(ctx, m); reply != nil {
						_ = c.send(ctx, reply)
					}
				}()
				return
			}
			if id := m.Get("id"); id.Type == gjson.Number && !m.Get("method").Exists() {
				c.mu.Lock()
				ch := c.pending[id.Int()]
				delete(c.pending, id.Int())
				c.mu.Unlock()
				if ch != nil {
					ch <- m
				}
			}
		})
	}
	if err == io.EOF {
		err = errors.New("the server closed the event stream")
	}
	c.mu.Lock()
	c.err = err
	for id, ch := range c.pending {
		close(ch)
		delete(c.pending, id)
	}
	c.mu.Unlock()
	if !sent {
		close(endpoint)
	}
}

func (c *mcpLegacy) streamErr() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

func (c *mcpLegacy) send(ctx context.Context, msg []byte) error {
	h := make(map[string]string, len(c.headers)+1)
	for k, v := range c.headers {
		h[k] = v
	}
	h["content-type"] = "application/json"
	resp, err := c.tr.Do(ctx, &HTTPRequest{Method: "POST", URL: c.endpoint, Header: h, Body: msg})
	if err != nil {
		return fmt.Errorf("POST %s: %w", c.endpoint, err)
	}
	defer resp.Body.Close()
	if !ok2xx(resp.Status) {
		return httpStatusError(resp)
	}
	return nil
}

func (c *mcpLegacy) request(ctx context.Context, id int64, msg []byte) (gjson.Result, error) {
	ch := make(chan gjson.Result, 1)
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		return gjson.Result{}, c.err
	}
	c.pending[id] = ch
	c.mu.Unlock()
	forget := func() {
		c.mu.Lock()
		delete(c.pending, id)
		c.mu.Unlock()
	}
	if err := c.send(ctx, msg); err != nil {
		forget()
		return gjson.Result{}, err
	}
	select {
	case m, ok := <-ch:
		if !ok {
			return gjson.Result{}, c.streamErr()
		}
		return m, nil
	case <-ctx.Done():
		forget()
		return gjson.Result{}, ctx.Err()
	}
}

func (c *mcpLegacy) close(context.Context) { c.cancel() }

// resolveURL resolves ref (absolute, host-relative or path-relative)
// against base, without net/url (see urlescape.go).
func resolveURL(base, ref string) string {
	if httpScheme(ref) {
		return ref
	}
	scheme := strings.Index(base, "://")
	if scheme < 0 {
		return ref
	}
	hostEnd := strings.IndexAny(base[scheme+3:], "/?#")
	origin := base
	if hostEnd >= 0 {
		origin = base[:scheme+3+hostEnd]
	}
	if strings.HasPrefix(ref, "/") {
		return origin + ref
	}
	dir := base
	if i := strings.IndexAny(dir, "?#"); i >= 0 {
		dir = dir[:i]
	}
	if i := strings.LastIndexByte(dir, '/'); i >= len(origin) {
		dir = dir[:i+1]
	} else {
		dir = origin + "/"
	}
	return dir + ref
}
