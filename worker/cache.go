package worker

import (
	"sync"
	"time"

	"github.com/toolnexus/wasm/core"
)

// builds keeps what every request of one configuration would build the
// same, for the handler's life (on Workers, the isolate's): the checked
// configuration, the toolkit and the client with its encoded request params. Before it, each /v1/run built
// them again: CreateToolkit, the tools' schemas, the skills, CreateClient.
// A request builds its own only where one cannot be shared:
//
//   - MCP_CONFIG's servers and A2A_AGENTS' cards are contacted per request
//     (no session is kept between requests; their I/O is the request's);
//   - the built-in file tools work on the request's workspace;
//   - a conversation store (CONVERSATIONS_KV) is the request's binding.
//
// The settings are read on every request (Options.Getenv may change
// between requests natively and a Worker's env may differ between its
// handlers), so each entry is keyed on what it was built from: the value of
// every setting read while it was built (settingsMemo).
type builds struct {
	toolkit settingsMemo[*core.Toolkit]
	// config is checkConfig's answer (readiness.go), which every route
	// reads.
	config settingsMemo[checkedConfig]

	mu      sync.Mutex
	clients map[clientKey]*core.Client
}

// clientKey is what AgentClient builds a client from.
type clientKey struct {
	baseURL, style, model, apiKey, systemPrompt string
	maxTurns, retries                           int
	timeout                                     time.Duration
}

// maxClients bounds builds.clients: a handful of configurations at most
// (a durable run's client has no timeout, a request's has one).
const maxClients = 16

// client returns the client of key, made by build once.
func (b *builds) client(key clientKey, build func() *core.Client) *core.Client {
	b.mu.Lock()
	defer b.mu.Unlock()
	if c, ok := b.clients[key]; ok {
		return c
	}
	if b.clients == nil || len(b.clients) >= maxClients {
		b.clients = map[clientKey]*core.Client{}
	}
	c := build()
	b.clients[key] = c
	return c
}

// settingsMemo caches one value computed from the settings. Its key is the
// settings the computation read, each with the value it had, and whether a
// files binding was bound (the built-ins read it): the value is reused while
// all of them read the same.
type settingsMemo[T any] struct {
	mu    sync.Mutex
	ok    bool
	reads []settingRead
	val   T
}

// settingRead is one setting a computation read and its value; name
// filesBound stands for Options.Files being bound ("1") or not ("").
type settingRead struct{ name, value string }

const filesBound = "\x00files"

// get returns the value for h's settings: the cached one when every setting
// it was computed from reads the same, else compute's, run on a copy of h
// that records what it reads, and cached when compute says it may be.
func (m *settingsMemo[T]) get(h *Handler, compute func(h *Handler) (T, bool)) T {
	m.mu.Lock()
	if m.ok && readsHold(h, m.reads) {
		v := m.val
		m.mu.Unlock()
		return v
	}
	m.mu.Unlock()
	rec := &recorder{getenv: h.opts.Getenv, files: h.opts.Files}
	bound := *h
	bound.opts.Getenv = rec.getenvFunc
	bound.opts.Files = rec.filesFunc
	v, cacheable := compute(&bound)
	reads := rec.stop()
	if cacheable {
		m.mu.Lock()
		m.ok, m.reads, m.val = true, reads, v
		m.mu.Unlock()
	}
	return v
}

// readsHold reports whether every read gives the same value on h.
func readsHold(h *Handler, reads []settingRead) bool {
	for _, r := range reads {
		if r.name == filesBound {
			if (h.opts.Files() != nil) != (r.value == "1") {
				return false
			}
		} else if h.opts.Getenv(r.name) != r.value {
			return false
		}
	}
	return true
}

// recorder records the settings a computation reads. What the computation
// built may keep its Getenv and call it later (a tool reading its key):
// after stop it only reads.
type recorder struct {
	getenv  func(string) string
	files   func() BlobStore
	mu      sync.Mutex
	stopped bool
	reads   []settingRead
}

func (r *recorder) getenvFunc(name string) string {
	v := r.getenv(name)
	r.record(name, v)
	return v
}

func (r *recorder) filesFunc() BlobStore {
	s := r.files()
	v := ""
	if s != nil {
		v = "1"
	}
	r.record(filesBound, v)
	return s
}

func (r *recorder) record(name, value string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.stopped {
		return
	}
	for _, x := range r.reads {
		if x.name == name {
			return
		}
	}
	r.reads = append(r.reads, settingRead{name, value})
}

func (r *recorder) stop() []settingRead {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.stopped = true
	return r.reads
}
