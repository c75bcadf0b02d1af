package mcp

import (
	"context"
	"errors"
	fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx
	"io"
	"strings"
	"sync"

	"github.com/tidwall/gjson"
	"github.com/toolnexus/wasm/core/tool"
)

// mcpLegacy is the HTTP+SSE transport of protocol 2024-11-05: a GET opens
// an event stream whose "endpoint" event names the URL to POST messages
// to; every response arrives on the stream.
type mcpLegacy struct {
	tr       tool.Transport
	headers  map[string]string
	endpoint string
	serve    mcpServe
	cancel   context.CancelFunc

	mu      sync.Mutex
	pending map[int64]chan gjson.Result
	err     error // why the stream ended
}

// dialLegacy opens the stream and waits, within ctx, for the endpoint.
func dialLegacy(ctx context.Context, tr tool.Transport, url string, headers map[string]string, serve mcpServe) (*mcpLegacy, error) {
	streamCtx, cancel := context.WithCancel(context.Background())
	c := &mcpLegacy{tr: tr, headers: headers, serve: serve, cancel: cancel, pending: map[int64]chan gjson.Result{}}
	// The stream outlives ctx, but opening it must not: detach once open.
	detach := context.AfterFunc(ctx, cancel)
	resp, err := mcpDo(streamCtx, tr, "GET", url, headers, []string{"accept", "text/event-stream"}, nil)
	if err == nil && !isEventStream(resp) {
		resp.Body.Close()
		err = fmt.Errorf("GET %s: not an event stream", url)
	}
	if err != nil {
		cancel()
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, err
	}
	endpoint := make(chan string, 1)
	go c.read(streamCtx, resp.Body, url, endpoint)
	select {
	case ep, ok := <-endpoint:
		if !ok {
			return nil, fmt.Errorf("the event stream ended before the endpoint event: %v", c.streamErr())
		}
		if !detach() {
			return nil, ctx.Err()
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
	sent := false
	err := readEvents(body, func(event string, m gjson.Result) bool {
		switch {
		case event == "endpoint":
			if !sent {
				endpoint <- resolveURL(base, m.Str)
				sent = true
			}
		case isServerRequest(m):
			answer(ctx, c.serve, c.send, m)
		case m.Get("id").Type == gjson.Number:
			c.mu.Lock()
			ch := c.pending[m.Get("id").Int()]
			delete(c.pending, m.Get("id").Int())
			c.mu.Unlock()
			if ch != nil {
				ch <- m
			}
		}
		return false
	})
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
	resp, err := mcpDo(ctx, c.tr, "POST", c.endpoint, c.headers, []string{"content-type", "application/json"}, msg)
	if err != nil {
		return err
	}
	return resp.Body.Close()
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
	err := c.send(ctx, msg)
	if err == nil {
		select {
		case m, ok := <-ch:
			if !ok {
				return gjson.Result{}, c.streamErr()
			}
			return m, nil
		case <-ctx.Done():
			err = ctx.Err()
		}
	}
	c.mu.Lock()
	delete(c.pending, id)
	c.mu.Unlock()
	return gjson.Result{}, err
}

func (c *mcpLegacy) close(context.Context) { c.cancel() }

// resolveURL resolves ref (absolute, host-relative or path-relative)
// against base, without net/url (see urlescape.go).
func resolveURL(base, ref string) string {
	if tool.IsHTTPURL(ref) {
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
