package runs

import (
	"bytes"
	"context"
	"net/http"
	"sync"
	"time"

	"github.com/tidwall/gjson"
	"github.com/toolnexus/wasm/worker"
)

// runSink is the http.ResponseWriter a durable run's /v1/run or /v1/resume
// streams into. Each event is one Write (worker.SSEWriter); the sink logs
// it in the run's store, except that
//
//   - core's pending event and the halt's done event (status "pending",
//     with the state token and the transcript) become one "pending" event
//     {type, request, approveURL, expiresAt}: the run is not over, and its
//     stream goes on when the request is answered;
//   - the final done event loses "messages", "state" and "stateExpiresAt",
//     and an error event its partial "result": the transcript stays in the
//     store.
//
// A route that answers plainly (an error before the run started) is kept
// whole for driveRun to pass on.
type runSink struct {
	h      *worker.Handler
	ctx    context.Context
	cfg    worker.Config
	store  worker.RunStore
	id     string
	origin string

	header    http.Header
	status    int
	streaming bool
	started   chan struct{}
	startOnce sync.Once
	plain     bytes.Buffer

	// starts: the sink serves the run's first /v1/run, so a plain answer
	// (an error before it started) also ends the run's record.
	starts bool

	mu     sync.Mutex
	halts  []runHalt // what notify posts to APPROVAL_WEBHOOK
	closed bool
}

// runHalt is one halt of the run, for the webhook.
type runHalt struct {
	pending    gjson.Result
	approveURL string
	expiresAt  string
}

func newRunSink(ctx context.Context, h *worker.Handler, cfg worker.Config, store worker.RunStore, id, origin string) *runSink {
	return &runSink{h: h, ctx: ctx, cfg: cfg, store: store, id: id, origin: origin, header: http.Header{}, started: make(chan struct{})}
}

func (s *runSink) Header() http.Header { return s.header }

func (s *runSink) WriteHeader(code int) {
	if s.status != 0 {
		return
	}
	s.status = code
	if code == http.StatusOK && bytes.HasPrefix([]byte(s.header.Get("Content-Type")), []byte("text/event-stream")) {
		s.streaming = true
		s.startOnce.Do(func() { close(s.started) })
	}
}

// Flush lets worker.SSEWriter flush: every Write is already logged.
func (s *runSink) Flush() {}

func (s *runSink) Write(p []byte) (int, error) {
	if s.status == 0 {
		s.WriteHeader(http.StatusOK)
	}
	if !s.streaming {
		s.plain.Write(p)
		return len(p), nil
	}
	if bytes.HasPrefix(p, []byte(": ")) {
		return len(p), nil
	}
	name, data := splitSSE(p)
	if name == "" {
		return len(p), nil
	}
	if err := s.event(name, data); err != nil {
		s.h.Options().Logf("worker: run store: %v", err)
	}
	return len(p), nil
}

// splitSSE splits one "event: <name>\ndata: <json>\n\n" block.
func splitSSE(p []byte) (string, []byte) {
	var name string
	var data []byte
	for len(p) > 0 {
		line := p
		if i := bytes.IndexByte(p, '\n'); i >= 0 {
			line, p = p[:i], p[i+1:]
		} else {
			p = nil
		}
		if v, ok := bytes.CutPrefix(line, []byte("event: ")); ok {
			name = string(v)
		} else if v, ok := bytes.CutPrefix(line, []byte("data: ")); ok {
			data = v
		}
	}
	return name, data
}

func (s *runSink) append(typ string, data []byte) error {
	return s.store.Append(s.ctx, s.id, typ, data)
}

// event logs one event of the run.
func (s *runSink) event(name string, data []byte) error {
	switch name {
	case "pending":
		return nil // the halt's done event says it, with the link
	case "error":
		doc := gjson.ParseBytes(data)
		errRaw := doc.Get("error").Raw
		if errRaw == "" {
			errRaw = `{"code":"internal","message":"internal error"}`
		}
		if err := s.store.Put(s.ctx, s.id, []byte(`{"status":"error","error":`+errRaw+`}`), ""); err != nil {
			return err
		}
		return s.append("error", []byte(`{"error":`+errRaw+`}`))
	case "done":
		doc := gjson.ParseBytes(data)
		if doc.Get("status").String() == "pending" && doc.Get("state").String() != "" {
			return s.halt(doc)
		}
		public := []byte(`{"status":"done","text":` + string(rawString(doc.Get("text").String())))
		if l := doc.Get("limit").String(); l != "" {
			public = append(public, `,"limit":`...)
			public = append(public, rawString(l)...)
		}
		public = append(public, '}')
		if err := s.store.Put(s.ctx, s.id, public, ""); err != nil {
			return err
		}
		return s.append("done", withoutKeys(doc, "messages", "state", "stateExpiresAt"))
	}
	return s.append(name, data)
}

// halt keeps the state token in the store and publishes the pending
// request with its approval link.
func (s *runSink) halt(doc gjson.Result) error {
	pending := doc.Get("pending")
	// The link expires with the state token it answers.
	token := doc.Get("state").String()
	st, err := worker.NewSealer(s.cfg.StateSecret, s.h.Options().Now).Open(s.cfg.Style, token)
	if err != nil {
		return err
	}
	exp := time.Unix(st.ExpiresAt, 0)
	link := approvalLink{Run: s.id, Req: pending.Get("id").String(), Digest: argsDigest(pending.Get("data.args").Raw), Exp: exp.Unix()}
	url := s.origin + link.path(linkKey(s.cfg.StateSecret))
	expiresAt := rawString(exp.UTC().Format(time.RFC3339))
	p := []byte(`{"id":` + string(rawString(link.Req)) + `,"tool":` + string(rawString(pending.Get("data.tool").String())))
	p = append(p, `,"args":`...)
	if a := pending.Get("data.args").Raw; a != "" {
		p = append(p, a...)
	} else {
		p = append(p, "{}"...)
	}
	if path := pending.Get("data.path"); path.IsArray() {
		p = append(p, `,"path":`...)
		p = append(p, path.Raw...)
	}
	p = append(p, `,"approveURL":`...)
	p = append(p, rawString(url)...)
	p = append(p, `,"expiresAt":`...)
	p = append(p, expiresAt...)
	p = append(p, `,"request":`...)
	p = append(p, pending.Raw...)
	p = append(p, '}')
	public := append([]byte(`{"status":"pending","pending":`), p...)
	public = append(public, '}')
	if err := s.store.Put(s.ctx, s.id, public, token); err != nil {
		return err
	}
	ev := []byte(`{"type":"pending","request":` + pending.Raw + `,"approveURL":` + string(rawString(url)) + `,"expiresAt":` + string(expiresAt) + `}`)
	if err := s.append("pending", ev); err != nil {
		return err
	}
	s.mu.Lock()
	s.halts = append(s.halts, runHalt{pending: pending, approveURL: url, expiresAt: exp.UTC().Format(time.RFC3339)})
	s.mu.Unlock()
	return nil
}

// close marks the route's handler as returned; a plain answer is then
// complete.
func (s *runSink) close() {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	s.startOnce.Do(func() { close(s.started) })
}

// fail ends a run whose handler panicked.
func (s *runSink) fail() {
	if s.streaming {
		s.event("error", []byte(`{"error":{"code":"internal","message":"internal error"}}`))
	} else if s.status == 0 {
		s.status = http.StatusInternalServerError
		s.plain.WriteString(`{"error":{"code":"internal","message":"internal error"}}`)
	}
	s.close()
}

// answerPlain passes a plain answer (an error before the run started) on
// to the caller, and records it as the run's end.
func (s *runSink) answerPlain(w http.ResponseWriter) {
	status := s.status
	if status == 0 {
		status = http.StatusInternalServerError
		s.plain.WriteString(`{"error":{"code":"internal","message":"internal error"}}`)
	}
	if s.starts {
		if msg := gjson.GetBytes(s.plain.Bytes(), "error"); msg.IsObject() {
			s.store.Put(s.ctx, s.id, []byte(`{"status":"error","error":`+msg.Raw+`}`), "")
			s.append("error", []byte(`{"error":`+msg.Raw+`}`))
		}
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(s.plain.Bytes())
}

// notify posts each halt to APPROVAL_WEBHOOK (webhook.go).
func (s *runSink) notify() {
	s.mu.Lock()
	halts := s.halts
	s.halts = nil
	s.mu.Unlock()
	for _, h := range halts {
		postWebhook(s.ctx, s.h, s.id, h)
	}
}
