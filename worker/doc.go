// Package worker serves the toolnexus agent over HTTP, as a Cloudflare
// Worker (wasm/worker, built by ./build.sh worker) or natively (go run
// ./wasm/worker). The handler is plain net/http; everything platform
// specific comes in through Options (worker/cfworker.Options picks the
// right set, and cfworker.Serve serves the handler).
//
// Package worker is the router and what the products share; a product that
// is its own package mounts its routes (NewHandler(opts, gateway.Mount,
// mcpserver.Mount, teams.Mount, uiproto.Mount, runs.Mount, a2aserve.Mount)):
// the OpenAI gateway (worker/gateway), the MCP server (worker/mcpserver),
// agent teams (worker/teams, the TeamRunner the run API and the UI stream
// hand "agent" to), the AI SDK UI message stream (worker/uiproto: /v1/ui),
// durable runs with their approval links (worker/runs, over the RunStore
// of Options) and the agent over A2A, each task a durable run
// (worker/a2aserve). The API below is the whole Worker's, as wasm/worker
// mounts it.
//
// # HTTP API (JSON in and out)
//
// POST bodies must be sent with Content-Type: application/json (a charset
// parameter, if any, must be UTF-8); any other type, or none, is 415.
//
//	POST /v1/run     {"prompt": "...", "messages": [...]?, "stream"?: bool,
//	                  "conversation"?: "<id>", "workspace"?: "<name>",
//	                  "agent"?: "<a name declared in AGENTS>"}
//	                 ⇒ 200 RunResult (with "agent": a team's result, see Agent
//	                   teams); when status is "pending" it also carries
//	                   "state" (the sealed token) and "stateExpiresAt"
//	POST /v1/resume  {"state": "...", "answer": {"id", "ok", "data"?, "reason"?},
//	                  "stream"?: bool, "conversation"?: "<id>"}
//	                 ⇒ 200 RunResult (possibly pending again, with a new state)
//	POST /v1/runs    the body of /v1/run ("conversation" excepted)
//	                 ⇒ 202 {"id", "status": "running", "events"} (see Durable
//	                   runs)
//	GET  /v1/runs/<id>
//	                 ⇒ {"status", "text"?, "pending"?, "error"?}
//	GET  /v1/runs/<id>/events
//	                 ⇒ the run's events (text/event-stream, with ids)
//	GET  /v1/runs/<id>/decisions
//	                 ⇒ {"run", "count", "head", "decisions"} the run's
//	                   decision record, chained (?format=jsonl: JSON Lines)
//	POST /v1/runs/<id>/revoke
//	                 {"grant"} ⇒ 200 {"status": "revoked", "decision"}
//	GET  /approve?…  the approval page of a durable run's link (not behind
//	                 API_TOKEN: the signed link is the capability)
//	POST /approve?…  {"ok", "reason"?, "args"?, "grant"?} ⇒ 200 {"status":
//	                 "answered", "decision"}
//	POST /v1/chat/completions
//	                 {"model"?, "messages", "tools"?, "stream"?, "stream_options"?}
//	                 ⇒ 200 an OpenAI chat.completion; with "stream": true its
//	                   chat.completion.chunk events, ending data: [DONE]
//	POST /v1/ui      the AI SDK's DefaultChatTransport body ({id, messages:
//	                 UIMessage[], trigger, messageId?, …})
//	                 ⇒ 200 the AI SDK's UI message stream (see AI SDK UI
//	                   message stream below)
//	GET  /v1/ui/<chat id>/stream
//	                 ⇒ 204 (the AI SDK's reconnect: there is no running
//	                   response to join)
//	GET  /v1/models  ⇒ {"object": "list", "data": [{"id": <each of MODELS>, "object": "model", …}]}
//	POST /mcp        the Worker's tools as a streamable-HTTP MCP server
//	                 (JSON-RPC: initialize, tools/list, tools/call; see
//	                 docs/mcp.md)
//	GET  /.well-known/agent-card.json
//	                 ⇒ the A2A 1.0 agent card: the Worker's agent and its
//	                   AGENTS team as skills, the JSON-RPC interface /a2a
//	POST /a2a        A2A 1.0 JSON-RPC: SendMessage, SendStreamingMessage,
//	                 GetTask, CancelTask, SubscribeToTask; each task a
//	                 durable run, an approval its input-required state
//	                 (worker/a2aserve, docs/a2a.md)
//	GET  /v1/tools   ⇒ {"tools": [{name, description, inputSchema, source, needsApproval}]}
//	GET  /metrics    ⇒ Prometheus text
//	GET  /healthz    ⇒ {"status": "ok", "ready": bool} (liveness: always 200)
//	GET  /readyz     ⇒ 200 {"status": "ready", "run": true, "resume": true, "problems": []}
//	                   or 503 {"status": "not_ready", "run", "resume",
//	                   "problems": [{"setting", "problem"}]} (names, never values)
//
// RunResult is core.RunResult as JSON: text, messages, toolCalls,
// toolCallCount, turns, usage, model, status, limit, pending. "messages"
// may be sent back as the history of the next /v1/run.
//
// A request body is one JSON object. Keys are case-sensitive; a field of
// the wrong type or, on /v1/run and /v1/resume, a field the route does not
// know is a 400 bad_json whose message names it ("request body: \"prompt\"
// must be a string"). JSON nested more than 1000 levels is refused before
// it is parsed.
//
// Errors are {"error": {"code", "message"}} with a 4xx or 5xx status:
//
//	400 bad_json, json_too_deep (nested more than 1000 levels),
//	    missing_field, invalid_field, answer_mismatch, invalid_args
//	    (an approval's edited "data.args" that do not fit the tool's schema;
//	    checked before the token is spent, so it can be resumed again),
//	    conversations_unavailable (no CONVERSATIONS_KV), invalid_request
//	    and unknown_model (/v1/chat/completions), state_malformed, state_version, state_invalid (edited or another
//	    STATE_SECRET), state_expired, state_mismatch (another LLM_STYLE),
//	    unknown_agent ("agent" not declared in AGENTS), unsupported_field
//	    ("messages" or "conversation" with a team), unknown_approval
//	    (/v1/ui: an approval response for a call this Worker did not ask
//	    about)
//	401 unauthorized (API_TOKEN set and no valid bearer on /v1/*, /mcp, /a2a
//	    or the agent card)
//	403 origin_not_allowed (an Origin not in ALLOWED_ORIGINS)
//	404 not_found, 405 method_not_allowed, 413 body_too_large,
//	    conversation_too_large (over MAX_CONVERSATION_BYTES; not saved)
//	409 state_spent (the token was already resumed: approved or declined),
//	    state_unrestorable (a team's tree names an agent AGENTS no longer declares)
//	410 state_gone (a team's halted tree is no longer stored)
//	415 unsupported_media_type (a POST body that is not application/json)
//	500 config (names every missing or invalid setting, also as
//	    "problems": [{"setting", "problem"}]), internal
//	501 teams_unavailable (a team run on a build that mounts no worker/teams)
//	502 upstream_error (upstreamStatus: the provider's HTTP status, when it
//	    answered; "result": the partial run when tools already ran)
//	503 approvals_unavailable (no APPROVALS ledger: resumes and team runs
//	    are refused),
//	    state_store (the ledger failed), conversation_store,
//	504 upstream_timeout
//
// # Streaming
//
// With "stream": true, /v1/run and /v1/resume answer text/event-stream:
// core's StreamEvents as they happen, each as
//
//	event: text | tool_call | tool_result | pending | usage
//	data: {"type", "delta"?, "name"?, "id"?, "args"?, "originalArgs"?, "output"?, "isError"?, "usage"?, "request"?}
//
// (a tool_result whose arguments an approval edited carries "args", what
// ran, and "originalArgs", what the model asked; RunResult's toolCalls[]
// carry the same pair)
//
// then one "done" event whose data is the body the same request answers
// without "stream" (with "state" when pending), or one "error" event whose
// data is the error body above ({"error": {...}, "result"?}). A request
// that fails before the run starts (bad JSON, a bad token, no API_TOKEN
// bearer) is answered as plain JSON with its status. Events reach the
// client as they are written: each is flushed, and on Workers the response
// then becomes a stream fed by each write (cfworker.Serve). A client that
// disconnects cancels the run (on Workers through request.signal, the
// compatibility flag enable_request_signal, and the response stream's
// cancel), at the latest when the next event cannot be written.
//
// # AI SDK UI message stream
//
// POST /v1/ui lets a chat front-end built on the Vercel AI SDK (ai 6.x:
// useChat, or Chat with DefaultChatTransport({api: ".../v1/ui"})) talk to
// the agent in its own protocol. The body's "messages" must be a non-empty
// list of UI messages ({role: "system"|"user"|"assistant", parts: [{type,
// …}]}; 400 invalid_field or missing_field naming the message otherwise).
// When the last message is the user's, its text is the prompt and the
// messages before it the transcript (text, and tool calls with their
// results, per step; system messages, files and data parts are not sent).
// The answer is text/event-stream with the header
// x-vercel-ai-ui-message-stream: v1, one "data: <chunk>" per part, ending
// "data: [DONE]":
//
//	start, then per model call start-step … finish-step:
//	  text           → text-start, text-delta…, text-end
//	  tool_call      → tool-input-available {toolCallId, toolName, input,
//	                   toolMetadata: {source, server?, needsApproval?, path?}}
//	  tool_result    → tool-output-available {output} | tool-output-error
//	                   {errorText} | tool-output-denied (declined);
//	                   toolMetadata {edited, args, originalArgs} when an
//	                   approval edited the arguments
//	  pending        → tool-approval-request {approvalId: pending.id,
//	                   toolCallId, signature: the sealed state token,
//	                   approvalDescriptor: {kind, prompt, tool, args,
//	                   source, server?, schema?, path?, expiresAt}}
//	finish {finishReason: stop | tool-calls (halted) | length | other,
//	        messageMetadata: {toolnexus: {status, usage, turns, model,
//	        limit?}}}, or error {errorText: "<code>: <message>"}
//
// A request of another kind than an approval (a question, a relay call)
// has no place in the protocol: it comes as a data-toolnexus-pending part
// {request, state, stateExpiresAt}, to be answered on /v1/resume.
//
// The client's approval response (addToolApprovalResponse) comes back as
// the assistant message with its tool part in state "approval-responded",
// approval {id, approved, reason?, signature}. The signature is the state
// token: the run resumes from the token's transcript (the messages are not
// read then), after the checks of /v1/resume (state_* codes;
// answer_mismatch; unknown_approval when the part has no signature or
// names another tool call) and after the token is spent in the APPROVALS
// ledger (409 state_spent: a replayed answer runs nothing). Approved, the
// tool runs once, with the body's "approvalArgs" (an object) instead of the
// model's arguments when present (checked against the tool's schema before
// the token is spent: 400 invalid_args); denied, the reason reaches the
// model as a decline's.
//
// With "agent" in the body (DefaultChatTransport's body option), the last
// user message's text is the task of that AGENTS team (its members keep
// their own transcripts, so earlier messages are not sent). One step is
// one model call of one agent; a member's tool calls carry toolMetadata
// {path}, its text is not written (it reaches the top agent as its task's
// result), and a halt anywhere in the tree is the approval request of the
// member's call, approvalDescriptor.path naming the asking agent. The
// answer resumes the tree from the TreeStore, as /v1/resume does.
//
// # Conversations
//
// When a KV namespace is bound as CONVERSATIONS_KV, "conversation" on
// /v1/run names a stored transcript (1-128 of A-Z a-z 0-9 . _ : -): the run
// continues it and saves the result back (core's Client.Ask), also when it
// halts pending; /v1/resume with the same "conversation" saves the resumed
// run. "messages" and "conversation" exclude each other. A transcript is
// capped at MAX_CONVERSATION_BYTES (default 1 MiB) and expires
// CONVERSATION_TTL_SECONDS (default 30 days; 0 never) after its last save.
// Without the binding, "conversation" is refused with 400; natively
// (cfworker.Options) the store is in memory. Anyone holding the API token
// can continue (and so read) any conversation whose id they know: use
// unguessable ids.
//
// # Built-in tools and their files
//
// BUILTINS turns on core's built-in tools (the build must link them:
// wasm/worker imports core/builtins): "on" for all that
// can work here, or a comma-separated list of names ("read,grep,question").
// Unset or "off", there are none. The file tools (read, write, edit, glob,
// grep, apply_patch) need a store: an R2 bucket bound as FILES_R2 or, when
// there is none, a KV namespace bound as FILES_KV. With "on" and no store
// they are left out; a list naming one is a 500 config error. Files live
// under "files/<workspace>/<path>": "workspace" on /v1/run names the set
// (1-64 of A-Z a-z 0-9 . _ -; "default" when absent), and a state token
// carries it to /v1/resume. write, edit and apply_patch halt for approval
// like any tool that needs it; a declined call writes nothing, and a patch
// with a hunk that does not apply writes nothing. A file is at most 1 MiB
// and a workspace at most 5000 files. grep takes JavaScript regular
// expressions on Workers (Go's natively); it reads each file it searches,
// one store operation each, and Workers allow 1000 per request. A KV listing can lag a write made
// elsewhere by up to a minute (within one request the Worker sees its own
// writes); R2 lists consistently. As with conversations, anyone holding the
// API token can use any workspace whose name they know.
//
// # OpenAI-compatible gateway
//
// POST /v1/chat/completions makes one call to the configured model
// (either LLM_STYLE) through core's Client.Translate: no tools run and
// SYSTEM_PROMPT is not added. "model" must be one the Worker serves:
// MODELS (comma-separated; it must list LLM_MODEL), else LLM_MODEL alone;
// absent, it is LLM_MODEL. Any other model is 400 unknown_model with the
// list in "models" (the provider is called with the Worker's key, so a
// caller picks among what the Worker lists); GET /v1/models lists them.
// Other OpenAI fields are ignored and "n" must be 1. The reply is a
// chat.completion: choices[0].message {role, content, tool_calls[{id,
// type:"function", function{name, arguments}}]}, finish_reason mapped to
// OpenAI's (end_turn → stop, tool_use → tool_calls, max_tokens → length),
// usage {prompt_tokens, completion_tokens, total_tokens}. With "stream":
// true it is OpenAI's chat.completion.chunk server-sent events, written as
// the model's deltas arrive, and "data: [DONE]" (stream_options.include_usage
// adds a usage chunk). API_TOKEN applies as on every /v1 route, so an
// OpenAI client passes it as its API key.
//
// # Metrics
//
// GET /metrics serves the Worker's counters (toolnexus_worker_*) and the
// sums of core's Client.Metrics (toolnexus_llm_*, toolnexus_tool_*,
// toolnexus_run_errors_total) over the requests this instance served. On
// Workers one Go instance serves every request of an isolate (cfworker.Serve), so
// the numbers describe one isolate since its instance started; Cloudflare
// runs many isolates, so across a deployment use the log lines or Workers
// Analytics.
//
// # Durable runs
//
// POST /v1/runs (worker/runs) records a run's start in its journal
// (core/journal) in a RunStore: the RunLog Durable Object bound as RUNS
// (worker/js/runs.mjs; the generated wrangler.jsonc declares it), one
// object per run id; without the binding /v1/runs answers 503
// runs_unavailable. The caller gets 202 at once. The run is run by the
// object: its alarm calls the executor (worker/runs/drive.go, through
// Handler.DriveRun on the isolate's Go instance), which continues the run
// from its journal with core's Client.Continue until it halts or ends,
// recording each step before it takes effect; a life cut off anywhere (an
// eviction, a deploy, a crash) is followed by the next, which goes on from
// the journal and never runs an approved call whose outcome was lost again
// unasked (a request of kind core.KindOutcomeUnknown). Each entry is
// written with the events it makes and the public state after it in one
// transaction (worker/runs/view.go). The transcript never leaves the object:
// GET /v1/runs/<id> (status, step, attempt, progressAt) and the events
// carry no "messages" or "state". GET /v1/runs/<id>/events replays the log
// from the start, or after Last-Event-ID, follows it live and ends after
// done or error. RUN_MAX_SECONDS bounds a leg (start or answer to the next
// halt or end).
//
// The approveURL is /approve?run&req&d&e&s: s is HMAC-SHA256 (key derived
// from STATE_SECRET) of the run id, the request id, d (the first 128 bits
// of SHA-256 of the arguments' JSON) and e (the expiry,
// APPROVAL_TTL_SECONDS after the request was recorded, default 86400).
// POST answers it once: the run's object records the first decision with
// the journal's answer entry (409 already_answered with the standing
// decision after that), and the executor goes on. 400 link_malformed,
// invalid_args, invalid_field; 403 link_invalid; 410 link_expired; 401
// approver_token (APPROVER_TOKEN set and not sent as X-Approver-Token or
// "approverToken"; named tokens, "alice:<token>,bob:<token>", name the
// approver in the record). "grant": "args"|"any" with an approval allows
// the tool for the rest of the run (these arguments, or any): later calls
// are approved by that decision and say so, until POST
// /v1/runs/<id>/revoke takes it back. GET /v1/runs/<id>/decisions is the
// run's decision record (core/approval): every decision — APPROVAL_RULES'
// allow and deny, a grant's approval, a person's answer, a revocation —
// from the run's journal, where each is recorded before it takes effect,
// chained as read; approval.Verify checks it. APPROVAL_WEBHOOK, when set, gets {run, tool, args,
// path, kind, approveURL, expiresAt, text} once per halt (3 attempts, 5 s
// each, with backoff).
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
// A token is single-use: before a resume runs anything, its id is recorded
// in the approval ledger, the ApprovalLedger Durable Object bound as
// APPROVALS (worker/js/ledger.mjs; the generated wrangler.jsonc declares it,
// so a plain `wrangler deploy` has it). One object per token id inserts the
// id if absent in its SQLite storage, one call at a time, so of any resumes
// of one token — approve after approve, decline then approve, concurrent
// ones from anywhere — exactly one runs and the others get 409. The entry
// is deleted by an alarm a minute after the token expires. A Worker without
// the binding refuses every resume (503 approvals_unavailable) and /readyz
// says so; natively the ledger is in memory.
//
// STATE_KV, when bound, only carries MCP elicitation answers between
// isolates (worker/cfworker/mcpmailbox_js.go); it records no tokens: KV has no
// compare-and-set, so concurrent resumes could all pass a KV check.
//
// # Agent teams
//
// AGENTS declares agent teams (AgentsSetting: a JSON array, as a string or
// as a JSON var in wrangler.jsonc; checked with the rest of the
// configuration). /v1/run with "agent" runs that agent with its team
// through core/agents: every agent uses the Worker's model settings, its
// "instructions" (else SYSTEM_PROMPT) as its system prompt and the tools it
// names; MAX_TURNS is the default of budget.maxTurns and
// LLM_TIMEOUT_SECONDS bounds the whole tree. The answer is
//
//	{"agent", "path": [agent], "status", "text", "isError"?, "limit"?,
//	 "pending"?, "turns", "totalTokens",
//	 "agents": [{"handle", "agent", "path", "state", "turns", "tokens"}],
//	 "state"?, "stateExpiresAt"?}
//
// A halt anywhere in the tree is "pending": pending.data.path names the
// asking agent (["support", "billing"]) and pending.data.handle its handle.
// The tree (agents.Runtime.Snapshot) is kept in the APPROVALS object named
// after the state token's id (TreeStore) until the token's expiry plus a
// minute; /v1/resume spends the token, takes the tree (read and delete),
// restores it and hands the Answer to the halted agent (Runtime.Resume).
// Streamed, a team run sends "agent" events (each handle's transitions)
// and core's events of every agent's turns, each with "handle" and "path".
// toolnexus_worker_agent_events_total counts model calls, tool calls and
// runs by agent path.
//
// # Approval rules
//
// APPROVAL_RULES (ApprovalRulesSetting) is a JSON array of approval rules
// (core/approval), read before every call of every run — stateless,
// durable, streamed, a team's: first match wins; allow runs a call
// without asking, deny stops it (the model reads the reason), ask waits
// for a person; no match keeps the tool's needsApproval. A tool of
// HTTP_TOOLS with "needsApproval": "always" asks whatever the rules say.
// It is checked with the rest of the configuration, every problem named
// at once. A stateless run's result carries its decisions, chained, and
// "decisionsHead".
//
// # Configuration
//
// See Config for the settings. Keys and secrets are read per request and
// never appear in a response or a log line. The whole configuration is
// checked at once (checkConfig): a request that needs it and finds problems
// gets one 500 naming every missing or invalid setting, the first request
// of an instance logs them all, and GET /readyz lists them (and a missing
// APPROVALS binding). The Authorization scheme "Bearer" is matched in any
// case.
//
// # Tools
//
// The tools are Go code in tools.go, a template to edit: see DefaultTools.
package worker
