//go:build js && wasm

package cfworker

import (
	"context"
	"fmt"
	"io"
	"syscall/js"

	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/internal/jsregexp"
	"github.com/toolnexus/wasm/jsbridge"

	"github.com/toolnexus/wasm/worker"
)

// StateKVBinding is the KV namespace that, when bound, carries an MCP
// client's answer to an elicitation to the isolate whose tools/call waits
// for it (mcpmailbox_js.go). It no longer records resumed state tokens:
// that is the APPROVALS Durable Object's job (KV has no compare-and-set).
const StateKVBinding = "STATE_KV"

// Options wires the handler to Cloudflare Workers (Serve): settings
// from the request's environment, outbound HTTP over fetch (jsbridge's
// transport, which streams event-stream bodies), the ApprovalLedger
// Durable Object bound as APPROVALS as the spent-token store and the store
// of halted agent teams (none when unbound: resumes and team runs are then
// refused), CONVERSATIONS_KV (when bound) under
// the "conversation" field, FILES_R2 or FILES_KV (when bound) under the
// built-ins' file system, and JavaScript's RegExp for grep.
//
// The environment and the bindings come with each request (Options.Bind
// reads them from the request's context); every JS call a request makes
// runs in that request's context (jsRequest.enter). Outside a request
// (tests under Node) nothing is set and fetch is globalThis.fetch.
func Options() worker.Options {
	var fetch core.Transport
	if t, err := jsbridge.NewFetchTransport(js.Undefined()); err == nil {
		fetch = requestTransport{inner: t}
	}
	return worker.Options{
		Getenv:    func(string) string { return "" },
		Transport: fetch,
		Match:     jsregexp.Matcher,
		// Outside a request the MCP mailbox is the isolate's memory alone.
		Mailbox: func() worker.Mailbox { return mcpMailbox(context.Background()) },
		Bind: func(ctx context.Context, o worker.Options) worker.Options {
			q := requestOf(ctx)
			if q == nil {
				return o
			}
			o.Getenv = q.getenv
			o.Logf = q.logf
			o.Spent = func() worker.SpentStore {
				if ns, ok := q.durableObject(worker.ApprovalsBinding); ok {
					return doLedger{ns: ns, q: q}
				}
				return nil
			}
			o.Trees = func() worker.TreeStore {
				if ns, ok := q.durableObject(worker.ApprovalsBinding); ok {
					return doLedger{ns: ns, q: q}
				}
				return nil
			}
			o.Runs = q.runsBinding
			o.Conversations = func() worker.KVNamespace {
				if ns, ok := q.boundObject(worker.ConversationsBinding); ok {
					return kvNamespace{ns: ns, q: q}
				}
				return nil
			}
			o.Files = func() worker.BlobStore { return q.filesBinding() }
			o.Mailbox = func() worker.Mailbox { return mcpMailbox(ctx) }
			return o
		},
	}
}

// requestTransport is the isolate's fetch: a call made in a request's
// context (ctx comes from the request, as every run's does) runs in that
// request's JS context, and so does each read of the reply's body, and
// cancelling it aborts the fetch there too (guard). It holds no request, so
// what is built with it (a toolkit's HTTP tools, a client) serves every
// request of the isolate. Outside a request (tests under Node) it is
// globalThis.fetch as is.
type requestTransport struct {
	inner core.Transport
}

func (t requestTransport) Do(ctx context.Context, req *core.HTTPRequest) (*core.HTTPResponse, error) {
	q := requestOf(ctx)
	if q == nil {
		return t.inner.Do(ctx, req)
	}
	gctx, release := q.guard(ctx)
	if err := q.enter(); err != nil {
		release()
		return nil, err
	}
	resp, err := t.inner.Do(gctx, req)
	if err != nil {
		release()
		return nil, err
	}
	if _, whole := resp.Body.(interface{ Bytes() []byte }); whole {
		// Read whole already: no JS call is left to make for it.
		release()
		return resp, nil
	}
	resp.Body = &requestTransportBody{q: q, body: resp.Body, release: release}
	return resp, nil
}

type requestTransportBody struct {
	q       *jsRequest
	body    io.ReadCloser
	release func()
}

func (b *requestTransportBody) Read(p []byte) (int, error) {
	if err := b.q.enter(); err != nil {
		return 0, err
	}
	return b.body.Read(p)
}

func (b *requestTransportBody) Close() error {
	defer b.release()
	if err := b.q.enter(); err != nil {
		return nil
	}
	return b.body.Close()
}

// jsCall calls method on v, in q's context, and waits for the Promise it
// returns. A throw and a rejection are both errors, named after op.
func (q *jsRequest) jsCall(ctx context.Context, op string, v js.Value, method string, args ...any) (js.Value, error) {
	if err := q.enter(); err != nil {
		return js.Undefined(), fmt.Errorf("%s: %w", op, err)
	}
	p, err := jsbridge.CallMethod(v, method, args...)
	if err != nil {
		return js.Undefined(), fmt.Errorf("%s: %w", op, err)
	}
	r, err := jsbridge.Await(ctx, p)
	if err != nil {
		return js.Undefined(), fmt.Errorf("%s: %w", op, err)
	}
	return r, nil
}
