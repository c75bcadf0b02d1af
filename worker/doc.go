// Package worker serves the toolnexus agent over HTTP, as a Cloudflare
// Worker (wasm/worker, built by ./build.sh worker) or natively (go run
// ./wasm/worker). The handler is plain net/http; everything platform
// specific comes in through Options (PlatformOptions picks the right set).
//
// # HTTP API (JSON in and out)
//
//	POST /v1/run     {"prompt": "...", "messages": [...]?}
//	                 ⇒ 200 RunResult; when status is "pending" it also carries
//	                   "state" (the sealed token) and "stateExpiresAt"
//	POST /v1/resume  {"state": "...", "answer": {"id", "ok", "data"?, "reason"?}}
//	                 ⇒ 200 RunResult (possibly pending again, with a new state)
//	GET  /v1/tools   ⇒ {"tools": [{name, description, inputSchema, source, needsApproval}]}
//	GET  /metrics    ⇒ Prometheus text
//	GET  /healthz    ⇒ {"status": "ok"}
//
// RunResult is core.RunResult as JSON: text, messages, toolCalls,
// toolCallCount, turns, usage, model, status, limit, pending. "messages"
// may be sent back as the history of the next /v1/run.
//
// Errors are {"error": {"code", "message"}} with a 4xx or 5xx status:
//
//	400 bad_json, missing_field, answer_mismatch,
//	    state_malformed, state_version, state_invalid (edited or another
//	    STATE_SECRET), state_expired, state_mismatch (another LLM_STYLE)
//	401 unauthorized (API_TOKEN set and no valid bearer on /v1/*)
//	403 origin_not_allowed (an Origin not in ALLOWED_ORIGINS)
//	404 not_found, 405 method_not_allowed, 413 body_too_large
//	409 state_spent (the token was already resumed; needs STATE_KV)
//	500 config (names the missing or invalid setting), internal
//	502 upstream_error (upstreamStatus: the provider's HTTP status, when it
//	    answered; "result": the partial run when tools already ran)
//	503 state_store, 504 upstream_timeout
//
// # Halts and state tokens
//
// A tool that needs approval halts the run: the response has status
// "pending", the request to show a person (pending.kind "approval",
// pending.data.{tool, args}) and a state token. The token is the transcript
// and the pending request, signed with HMAC-SHA256 under a key derived from
// STATE_SECRET (see Sealer); it expires after STATE_TTL_SECONDS. The caller
// posts it back with an Answer whose id echoes pending.id; the approved tool
// then runs once, or a decline's reason goes to the model as the tool's
// error result.
//
// A Worker keeps nothing between requests, so it can only refuse a second
// resume of the same token when a KV namespace is bound as STATE_KV (the
// token id is recorded before the tool runs). Without it, a token can be
// resumed again until it expires: keep STATE_TTL_SECONDS short, or bind
// STATE_KV, when a tool must never run twice.
//
// # Configuration
//
// See Config for the settings. Keys and secrets are read per request and
// never appear in a response or a log line.
//
// # Tools
//
// The tools are Go code in tools.go, a template to edit: see DefaultTools.
package worker
