package a2a

import (
	"context"
	"errors"
	fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx
	"io"
	"strings"

	"github.com/tidwall/gjson"
	"github.com/toolnexus/wasm/core/tool"
	"github.com/toolnexus/wasm/internal/jsonx"
)

const (
	// maxReply bounds what is read of one reply (a card, a JSON-RPC
	// response): a task's artifacts are text for a model, not downloads.
	maxReply = 8 << 20
	// protocolVersion goes out as the A2A-Version header: an A2A 1.0
	// server reads a request without it as 0.3 and refuses 1.0's methods.
	protocolVersion = "1.0"
)

// conn is the HTTP side of one agent: the transport, and the configured
// headers, whose ${NAME}s are filled on every request (never logged).
type conn struct {
	tr      tool.Transport
	headers map[string]string
	fill    func(string) (string, error)
}

func (c conn) header(extra ...string) (map[string]string, error) {
	h := make(map[string]string, len(c.headers)+len(extra)/2)
	for k, v := range c.headers {
		if c.fill != nil {
			filled, err := c.fill(v)
			if err != nil {
				return nil, fmt.Errorf("header %s: %w", k, err)
			}
			v = filled
		}
		h[k] = v
	}
	for i := 0; i+1 < len(extra); i += 2 {
		h[extra[i]] = extra[i+1]
	}
	return h, nil
}

// fetch makes one request and returns the reply's JSON; a non-2xx status,
// a reply over maxReply or one that is not JSON is an error.
func (c conn) fetch(ctx context.Context, method, url string, body []byte, extra ...string) (gjson.Result, error) {
	h, err := c.header(extra...)
	if err != nil {
		return gjson.Result{}, err
	}
	resp, err := c.tr.Do(ctx, &tool.HTTPRequest{Method: method, URL: url, Header: h, Body: body})
	if err != nil {
		return gjson.Result{}, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxReply+1))
	if err != nil {
		return gjson.Result{}, fmt.Errorf("read the reply: %w", err)
	}
	if resp.Status < 200 || resp.Status > 299 {
		excerpt := strings.TrimSpace(string(raw[:min(len(raw), 300)]))
		if excerpt == "" {
			return gjson.Result{}, fmt.Errorf("HTTP %d", resp.Status)
		}
		return gjson.Result{}, fmt.Errorf("HTTP %d: %s", resp.Status, excerpt)
	}
	if len(raw) > maxReply {
		return gjson.Result{}, fmt.Errorf("the reply is over %d bytes", maxReply)
	}
	if err := jsonx.CheckDepth(raw, jsonx.MaxDepth); err != nil {
		return gjson.Result{}, fmt.Errorf("the reply: %w", err)
	}
	if !gjson.ValidBytes(raw) {
		return gjson.Result{}, errors.New("the reply is not JSON")
	}
	return gjson.ParseBytes(raw), nil
}

// call sends one JSON-RPC 2.0 request to endpoint and returns its result.
// A JSON-RPC error is an error carrying its message (or its code).
func (c conn) call(ctx context.Context, endpoint, method string, params []byte) (gjson.Result, error) {
	body := make([]byte, 0, len(params)+96)
	body = append(body, `{"jsonrpc":"2.0","id":`...)
	body = jsonx.AppendString(body, tool.NewID("tnx-"))
	body = append(body, `,"method":`...)
	body = jsonx.AppendString(body, method)
	body = append(body, `,"params":`...)
	body = append(body, params...)
	body = append(body, '}')
	reply, err := c.fetch(ctx, "POST", endpoint, body,
		"content-type", "application/json", "accept", "application/json", "a2a-version", protocolVersion)
	if err != nil {
		return gjson.Result{}, err
	}
	if e := reply.Get("error"); e.Exists() && e.Type != gjson.Null {
		if msg := e.Get("message").String(); msg != "" {
			return gjson.Result{}, errors.New(msg)
		}
		return gjson.Result{}, fmt.Errorf("JSON-RPC error %s", e.Get("code").Raw)
	}
	return reply.Get("result"), nil
}
