// Package cfworker is the Worker's Cloudflare platform glue, the one place
// the Worker touches syscall/js: the request entry the main module calls
// (Serve), the response that streams back, the per-request environment, the
// outbound fetch, and the bindings behind package worker's store interfaces
// (the APPROVALS and RUNS Durable Objects, KV, R2, the MCP mailbox).
// Options binds them per request through worker.Options.Bind. Natively,
// Options gives in-memory stores and Serve listens on a port, so
// `go run ./wasm/worker` serves the same API without workerd.
package cfworker
