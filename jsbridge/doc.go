//go:build js && wasm

// Package jsbridge connects the Go agent core to JavaScript: it supplies core's
// transport over a JS fetch, a WaitFor over a JS async function, tools whose
// run is a JS function, and the API object the ES module web/toolnexus.mjs wraps.
//
// # The low-level API (Go ⇄ JS contract)
//
// The wasm main calls globalThis.__toolnexusBoot(api) once, after which the Go
// runtime stays alive serving calls. Every function on api returns a Promise and
// does its work on a new goroutine; a Go panic becomes a rejected Promise and the
// runtime stays alive. Rejections are Error objects whose message starts with
// "toolnexus:"; a failed run also carries err.resultJSON, the partial RunResult
// (everything completed before the failure) as JSON text.
//
//	api.version                       string
//	api.createToolkit(tools)          Promise<Toolkit>
//	api.createClient(options)         Promise<Client>
//	api.createRuntime(options)        Promise<Runtime>   (tools build only: agents.go)
//	api.restoreRuntime(options, snap) Promise<Runtime>   (tools build only)
//
// tools is an array of tool specs:
//
//	{name, description, inputSchema?, needsApproval?: bool, idempotent?: bool,
//	 relay?: bool, source?: string, run?: (args, ctx) => any | Promise<any>,
//	 http?: {method?, url, headers?, query?: [argName], body?: object, timeoutMs?}}
//
// createToolkit also takes {tools, variables, fetch, mcpServers, waitFor}:
// variables fills ${NAME} in http tool and MCP server headers (only from this
// explicit map), fetch (default globalThis.fetch) carries http tool and MCP
// requests, mcpServers is an MCP config (a map of servers, or a whole
// Claude-desktop config; see docs/mcp.md; only in a wasm whose main imports
// core/mcp, toolnexus-tools.wasm: elsewhere it is an error naming that
// build), and waitFor answers the MCP
// servers' elicitations (kind "input" with data.schema, or "authorization"
// with a URL; approvalDialog() renders both).
//
// Remote A2A agents (a2a.go, docs/a2a.md; only in a wasm whose main imports
// core/a2a and calls EnableA2A, as wasm/browser-tools does — elsewhere an
// error naming that build): a2aAgents ({name: {card, url?, headers?,
// timeout?, pollEvery?}}) adds each skill on an agent's card as a tool; a
// remote task's question suspends the call like an approval (kind "input"
// with data.schema, or "authorization"); tk.a2aStatus() reports each agent.
//
// Skills and built-in tools (builtins.go, docs/tools.md; only in a wasm whose
// main imports core/builtins and core/skills and calls EnableTools, as
// wasm/browser-tools does —
// elsewhere builtins is off and asking for any of
// these is an error): builtins (true by default, false, or {name: bool}),
// skills ({path: text} or the URL of a JSON index {"files": {path: text}}),
// files ({path: text}, the virtual file system's first content) and
// onFilesChange(path, text|null). The handle adds tk.files() ({path: text}),
// tk.skillsPrompt() (string) and tk.skills() ({skills, problems}).
//
// An http spec makes an HTTP tool executed by core (core/httptool.New): {name} in
// the url is replaced by the URL-escaped argument of that name (an unknown
// placeholder is an error result); arguments named in query go to the query
// string; GET/HEAD/DELETE send the other arguments as query parameters, other
// methods as a JSON body (merged over body). A non-2xx reply is the error
// result "HTTP <status>: <body>"; a 2xx reply is the body text with
// metadata.status.
//
// run receives the parsed arguments and ctx = {callId, toolName, answer,
// idempotencyKey} (answer is the Answer object on a re-run after a
// suspension, else null; idempotencyKey is "<run id>:<call id>", the same on
// every attempt of the call). idempotent declares that a call run again with
// the same key does no more than once: a journaled run cut off while an
// approved call of it ran runs it again instead of asking whether it
// happened; an idempotent http tool sends the key as Idempotency-Key. Its return
// value becomes the tool result: a string is the output; an object with an
// "output" or "isError" key is {output, isError, metadata}; anything else is
// JSON-encoded. A throw or rejection becomes an error result carrying the
// message, and the run continues. A relay spec (relay: true) has no run.
//
// Toolkit:
//
//	tk.tools()             Promise<[{name, description, inputSchema, source, needsApproval}]>
//	tk.execute(name, args) Promise<{output, isError, metadata?}>
//	tk.mcpStatus()         Promise<{server: {status: "connected"|"disabled"|"failed", error?, tools?}}>
//	tk.a2aStatus()         Promise<{agent: {status: "connected"|"disabled"|"failed", reason?, tools, card?}}>  (tools build)
//	tk.decisions()         Promise<string>  the toolkit's decision record, chained, as JSON Lines
//	tk.decisionsHead()     Promise<string>  the record's last hash
//	tk.grants(conversation)                Promise<string>  [{id, tool, scope, args?, approver?}]
//	tk.revoke(conversation, id, approver?) Promise<string|null>  the revocation's entry (null: no such grant)
//	tk.close()             Promise<void>  (ends MCP sessions)
//
// Approvals (approvals.go, core/approval): createToolkit's approvalRules (an
// array of rules, or its JSON text) decide each call before it runs, first
// match wins (allow, deny, ask; no match: the tool's needsApproval);
// needsApproval: "always" on a spec asks whatever a rule or grant says;
// onDecision(entryJSON) receives each decision of the toolkit's runs as the
// record chains it. An Ok answer with data.grant ("args" or "any") allows
// the tool for the rest of the run's conversation: the conversation
// argument of run, stream, runWithAnswer and streamWithAnswer, or a
// Conversation's id. api.verifyDecisions(jsonl, head?) resolves to {"ok",
// "count", "head"} or {"ok": false, "index", "seq", "error"} naming the
// first entry changed or removed.
//
// tk.execute runs one tool directly, outside a model loop: approval is the
// loop's job, so a needsApproval tool runs without asking.
//
// options for createClient:
//
//	{baseURL, style: "openai"|"anthropic", model, apiKey?, headers?, systemPrompt?,
//	 maxTurns?, maxTokens?, toolTimeoutMs?, timeoutMs?, retries?, retryBaseMs?,
//	 requestParams?, fetch?, waitFor?, generate?}
//
// fetch defaults to globalThis.fetch and is called as fetch(url, {method, headers,
// body, signal}): body is a string when the bytes are UTF-8 text (every request
// core makes is JSON), else a Uint8Array (always a Uint8Array without the host,
// see below); signal is set only when something can cancel the request (an
// AbortSignal passed to the run, timeoutMs). An event-stream response body is
// read chunk by chunk as it arrives, any other body whole.
// waitFor(request, {signal}) is called when a tool call suspends; it returns or
// resolves to an Answer {id, ok, data?, reason?}; signal aborts when the run is
// cancelled. A throw or rejection counts as a decline with the error message as
// reason. Without waitFor a suspension halts the run with status "pending".
// generate(request) — an async function of {model, messages, tools} returning
// {text, toolCalls: [{id?, name, arguments}], usage} — runs the model in the page
// instead of calling baseURL; its failures are not retried.
//
// Client (signal is an optional AbortSignal that cancels the run and aborts
// the in-flight fetch):
//
//	c.run(prompt, tk, historyJSON?, signal?, conversation?)           Promise<string>  RunResult JSON
//	c.stream(prompt, tk, historyJSON?, signal?, onEvent, conversation?) Promise<string>  RunResult JSON
//	c.runWithAnswer(tk, messagesJSON, pendingJSON, answerJSON, signal?, conversation?) Promise<string>  RunResult JSON
//	c.streamWithAnswer(tk, messagesJSON, pendingJSON, answerJSON, signal?, onEvent, conversation?) Promise<string>
//	c.translate(requestJSON, signal?)                                  Promise<string>  {text, toolCalls, finishReason, usage, model}
//	c.runJournal(tk, journal, signal?, onEvent?, prompt, historyJSON?, conversation?) Promise<string>  RunResult JSON
//	c.continueJournal(tk, journal, signal?, onEvent?, answerJSON?, conversation?)    Promise<string>  RunResult JSON
//	c.conversation(historyJSON?, id?)                                  Promise<Conversation>  (its id: h.id)
//	c.metrics()                                                        Promise<string>  Prometheus text
//	c.close()                                                          Promise<void>    releases the handle
//
// A run cancelled while waitFor waits rejects with the partial result in
// err.resultJSON: a durable halt (status "pending", pending set) that
// runWithAnswer resumes.
//
// stream and streamWithAnswer call onEvent(eventJSON) for each StreamEvent (text, tool_call,
// tool_result, pending, usage) and resolves with the result.
//
// runJournal and continueJournal run a journaled run (client_journal.go):
// journal is {load(): Promise<string[]>, record(key, entryJSON):
// Promise<void>} (journal.go; a record rejected as a "ConstraintError" is a
// duplicate key). runJournal records the start when the journal is empty,
// else continues the run it holds; continueJournal records answerJSON, if
// any, and goes on from the journal's last step. With onEvent they stream.
// In a journaled run, a waitFor that resolves {later: true} instead of an
// Answer halts the run (status "pending") with the request kept.
//
// A Conversation keeps its transcript in Go between runs, so a follow-up
// prompt crosses the boundary alone and the transcript crosses only when asked
// for. Its results are RunResult JSON without "messages" (a failed run's
// err.resultJSON keeps them). One run at a time; a second is refused.
//
//	conv.run(prompt, tk, signal?)                               Promise<string>
//	conv.stream(prompt, tk, signal?, onEvent)                   Promise<string>
//	conv.runWithAnswer(tk, answerJSON, signal?)                 Promise<string>  resumes its halted run
//	conv.streamWithAnswer(tk, answerJSON, signal?, onEvent)     Promise<string>
//	conv.messages()                                             Promise<string>  the transcript, a JSON array
//	conv.close()                                                Promise<void>
//
// A run that ends (done, incomplete, or halted on a request) replaces the
// transcript with its own; a failed one leaves it as it was, unless it halted
// durably (a cancelled wait), which runWithAnswer resumes.
//
// Plain JSON crosses the boundary as text so that long transcripts are neither
// walked value by value through syscall/js nor re-encoded.
//
// # The host (the narrow boundary)
//
// A loader may install globalThis.__toolnexusHost = bridgeHost(go) (from
// web/bridge-host.mjs) before go.run; toolnexus.mjs does, and a Worker entry
// can. The hot paths then cross with numbers only — ids, slots, pointers and
// lengths into the wasm memory — so they make no js.Value to finalize: a model
// call is one host call that fetches and reads the status, headers and body
// (an event stream is read chunk by chunk through the host), a JS tool gets its
// arguments as JSON text and answers as text, and outcomes that arrive later
// come back through the wasm export toolnexus_settle and one resume of the Go
// scheduler instead of a js.FuncOf pair per Promise. Without a host (Go's own
// test runner, a custom loader) the same features run over syscall/js.
package jsbridge
