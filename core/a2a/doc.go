// Package a2a calls remote Agent2Agent (A2A) agents as tools. An agent
// publishes an agent card (/.well-known/agent-card.json) listing its
// skills; each skill becomes a tool whose call sends the model's task to
// the agent (JSON-RPC SendMessage) and follows the task it starts
// (GetTask) to its end: the artifacts' text is the tool's output, a failed,
// rejected or cancelled task an error result.
//
// A task that stops in input-required or auth-required (the agent needs a
// person: an answer, an approval before it does something it cannot undo,
// a sign-in) becomes the tool's suspension: a core Request of kind "input"
// (with a one-field form, data.schema) or "authorization" (with the URL the
// agent named), which the tab's dialog, the embeddable element and an
// approval link show like any other. An Ok Answer continues the remote
// task with the person's reply; a decline cancels it (CancelTask) and the
// model reads the reason. The tool is RunsOnDecline for that.
//
// It speaks A2A 1.0's JSON-RPC binding (SendMessage, GetTask, CancelTask,
// the A2A-Version header, TASK_STATE_* states, {"task"} and {"message"}
// replies) and reads the v0.3 shapes the Go port of toolnexus serves
// ("kind":"text" parts, "completed", a bare Task as the result), so one
// client works with both. Requests go through the host's Transport (the
// JS fetch in wasm): no net/http in the browser builds.
//
// A program links it by importing it for its side effect:
//
//	import _ "github.com/toolnexus/wasm/core/a2a"
//
// Its init registers Parse and Tools with core/tool's registry; the JS
// bridge (createToolkit's a2aAgents) and the Worker (A2A_AGENTS) offer A2A
// agents only in a build whose main imports it (the tools build and the
// Worker; not the default browser build).
//
// The wire pieces a server needs too — the task states and how a run's end
// maps onto them (StateOf), JSON-RPC request decoding with its error codes
// (DecodeRequest) — are exported for the Go port's Serve and for the
// Worker's own A2A endpoint.
package a2a
