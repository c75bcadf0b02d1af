// Package a2aserve serves the Worker's agent as an Agent2Agent (A2A 1.0)
// agent (issue 36): GET /.well-known/agent-card.json is its card (card.go),
// and POST /a2a, the card's JSON-RPC interface, takes SendMessage,
// SendStreamingMessage, GetTask, CancelTask and SubscribeToTask. Both sit
// behind API_TOKEN like /v1/*; the card says so (a bearer scheme).
//
// An A2A task is a durable run (worker/runs): SendMessage starts one as
// POST /v1/runs does, so the RunLog Durable Object journals it and runs it,
// and the task's id is the run's id. What a task is follows from the run:
//
//	the run        the task
//	running        working
//	pending        input-required (auth-required for a sign-in), the status
//	               message's data part the run's pending request: id, kind,
//	               tool, the exact args, the asking agent's path (a team),
//	               approveURL, expiresAt, the whole request
//	done           completed: the answer is the artifact "answer"; metadata
//	               lists the tool calls as they ran (edited ones with their
//	               originalArgs)
//	error          failed, the status message saying why
//
// A message to a task waiting for input answers its request (answer.go): a
// data part {"approved": true}, {"approved": true, "args": {…}} (run with
// these arguments) or {"approved": false, "reason": "…"}, and for a
// question whether a call whose outcome was lost happened {"outcome":
// "happened", "output": "…"}, {"outcome": "rerun"} or {"approved": false}.
// The answer goes through the run's single-use answers, as an approval
// link's does: the first one wins, a later one (or the link's after it) is
// refused and nothing runs. CancelTask on a waiting task declines its
// request. A message with the contextId of an earlier task continues that
// conversation (conversation.go). SendMessage answers once the task waits
// or ends (within blockFor), unless the client asks to return at once;
// the streaming methods send the run's progress as it is logged
// (stream.go).
//
// Bad input — not JSON, not JSON-RPC 2.0, over 1 MiB or MAX_BODY_BYTES,
// nested past 32 levels, an unknown method, params that do not fit, an
// unknown task — is a JSON-RPC error with its code, and nothing runs.
package a2aserve

import (
	"io"
	"strings"
	"time"

	"github.com/tidwall/gjson"
	"github.com/toolnexus/wasm/core/a2a"
	"github.com/toolnexus/wasm/internal/httpx"
	"github.com/toolnexus/wasm/worker"
)

const (
	// CardRoute is where A2A clients look for the agent card.
	CardRoute = "/.well-known/agent-card.json"
	// RPCRoute is the card's JSON-RPC interface.
	RPCRoute = "/a2a"
	// maxRPCBody bounds one request: a message for a model, not an upload.
	maxRPCBody = 1 << 20
	// blockFor bounds how long SendMessage waits for its task to wait for
	// input or end; past it the task comes back "working" and the client
	// asks again with GetTask.
	blockFor = 60 * time.Second
)

// Mount adds the agent card and the JSON-RPC interface to the Worker's
// handler.
func Mount(h *worker.Handler) {
	h.Handle(CardRoute, worker.Route{Name: "a2a_card", Get: serveCard, Allow: "GET, HEAD, OPTIONS", API: true})
	h.Handle(RPCRoute, worker.Route{Name: "a2a", Post: serveRPC, Allow: "POST, OPTIONS", API: true, JSON: true})
}

// serveRPC answers one JSON-RPC request.
func serveRPC(h *worker.Handler, w httpx.ResponseWriter, r *httpx.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		writeError(w, "null", &a2a.RPCError{Code: a2a.CodeInvalidRequest, Message: "Invalid Request: the body is over the Worker's MAX_BODY_BYTES or could not be read"})
		return
	}
	req, rerr := a2a.DecodeRequest(body, maxRPCBody)
	if rerr != nil {
		writeError(w, req.ID, rerr)
		return
	}
	if v := strings.TrimSpace(r.Header.Get("A2A-Version")); v != "" && v != "1" && !strings.HasPrefix(v, "1.") {
		writeError(w, req.ID, &a2a.RPCError{Code: a2a.CodeVersionNotSupported, Message: "Version not supported: this agent speaks A2A 1.0 (A2A-Version " + worker.QuoteClip(v) + ")"})
		return
	}
	c := &call{h: h, w: w, r: r, id: req.ID, params: req.Params}
	switch req.Method {
	case "SendMessage":
		c.sendMessage(false)
	case "SendStreamingMessage":
		c.sendMessage(true)
	case "GetTask":
		c.getTask()
	case "CancelTask":
		c.cancelTask()
	case "SubscribeToTask":
		c.subscribe()
	case "ListTasks":
		c.fail(a2a.CodeUnsupportedOperation, "Unsupported operation: this agent does not list tasks; keep the ids SendMessage returns")
	case "CreateTaskPushNotificationConfig", "GetTaskPushNotificationConfig", "ListTaskPushNotificationConfigs", "DeleteTaskPushNotificationConfig":
		c.fail(a2a.CodePushNotSupported, "Push notifications are not supported: follow a task with SubscribeToTask or GetTask (or its run's events, GET /v1/runs/{id}/events)")
	case "GetExtendedAgentCard":
		c.fail(a2a.CodeExtendedCardNotConfigured, "Extended agent card not configured: the card at "+CardRoute+" is the whole card")
	default:
		c.fail(a2a.CodeMethodNotFound, "Method not found: "+worker.QuoteClip(req.Method))
	}
}

// call is one JSON-RPC request being answered.
type call struct {
	h      *worker.Handler
	w      httpx.ResponseWriter
	r      *httpx.Request
	id     string // the request's id, as JSON text
	params gjson.Result
}

// reply answers with result (JSON text).
func (c *call) reply(result []byte) {
	writeJSON(c.w, a2a.AppendResult(nil, c.id, result))
}

// fail answers with a JSON-RPC error.
func (c *call) fail(code int, message string) {
	writeError(c.w, c.id, &a2a.RPCError{Code: code, Message: message})
}

// internal answers a failure of the Worker's own (the run store), logging
// it; the client's message says nothing of it.
func (c *call) internal(err error) {
	c.h.Options().Logf("worker: a2a: %v", err)
	c.fail(a2a.CodeInternalError, "Internal error: the task could not be read or recorded; retry")
}

func writeError(w httpx.ResponseWriter, id string, e *a2a.RPCError) {
	writeJSON(w, a2a.AppendError(nil, id, e))
}

// writeJSON writes a JSON-RPC response: 200 whatever it says, as JSON-RPC
// over HTTP does.
func writeJSON(w httpx.ResponseWriter, b []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(httpx.StatusOK)
	w.Write(b)
}
