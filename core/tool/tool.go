package tool

import "context"

// JSONSchema is a JSON Schema object ({"type":"object","properties":{…}}),
// kept as a free-form map so it serializes exactly as written.
type JSONSchema = map[string]any

// ToolSource tells where a tool came from.
type ToolSource string

// The tool sources core knows. Hosts may use other values.
const (
	SourceNative ToolSource = "native"
	SourceRelay  ToolSource = "relay"
	SourceHTTP   ToolSource = "http"
	SourceJS     ToolSource = "js"
	SourceCustom ToolSource = "custom"
)

// ToolResult is what a tool hands back to the model.
type ToolResult struct {
	Output   string         `json:"output"`
	IsError  bool           `json:"isError"`
	Metadata map[string]any `json:"metadata,omitempty"`
}

// ToolContext is the per-call context a tool receives.
type ToolContext struct {
	// Ctx is cancelled when the run is cancelled or the tool times out. A
	// tool must return when it is done: the time limit is enforced through
	// it, not by abandoning the tool.
	Ctx context.Context
	// Timeout is the tool's time limit in milliseconds (0: the client default).
	Timeout int
	// Answer is set only when the tool runs again after a suspension: it is
	// the human's (or host's) resolution of the Request the tool returned.
	Answer *Answer
	// CallID is the provider's id for this tool call.
	CallID string
	// ArgsJSON is the call's arguments as JSON text when they are exactly
	// the args the tool runs with (the model's, or an approval's edit);
	// "" when a BeforeTool hook replaced them. A tool that hands its
	// arguments on as text (the JS bridge's) can pass it as it is instead
	// of encoding args again.
	ArgsJSON string
	// IdempotencyKey is "<run id>:<call id>": the same on every attempt of
	// this call, including one made again after the run was interrupted
	// (a journaled run, core/journal). A tool declared Idempotent passes it
	// on (HTTP tools send it as the Idempotency-Key header) so that the
	// service it calls does the work once.
	IdempotencyKey string
}

// Request is a suspension: a tool returns it under Metadata["pending"] when it
// needs something only a person or the host can give (an approval, an input,
// a login). Its JSON keys travel on the wire and are fixed.
type Request struct {
	ID        string         `json:"id"`
	Kind      string         `json:"kind"`
	Prompt    string         `json:"prompt"`
	URL       string         `json:"url,omitempty"`
	Data      map[string]any `json:"data,omitempty"`
	ExpiresAt string         `json:"expiresAt,omitempty"` // RFC 3339
}

// Answer resolves a Request; ID echoes Request.ID. Ok false is a refusal, not
// an error: the loop feeds Reason back to the model and carries on.
type Answer struct {
	ID     string         `json:"id"`
	Ok     bool           `json:"ok"`
	Data   map[string]any `json:"data,omitempty"`
	Reason string         `json:"reason,omitempty"`
	// Recorded, set by a host and never read from JSON, is the result a
	// person gave for the call an Ok approval is about, after the run was
	// interrupted while the call ran and its outcome was lost (core's
	// KindOutcomeUnknown): the call does not run again; this is its result.
	Recorded *ToolResult `json:"-"`
}

// Tool is the one abstraction every tool source produces.
type Tool struct {
	Name        string     `json:"name"`
	Description string     `json:"description"`
	InputSchema JSONSchema `json:"inputSchema"`
	Source      ToolSource `json:"source"`
	// NeedsApproval makes the first call of this tool suspend with a Request of
	// kind "approval" carrying the exact arguments; the tool runs only after an
	// Ok Answer. See RequireApproval.
	NeedsApproval bool `json:"needsApproval,omitempty"`
	// AlwaysAsk makes every call of this tool wait for a person: no
	// approval rule may allow it and no "allow for this conversation"
	// covers it (a rule may still deny it). It implies NeedsApproval.
	AlwaysAsk bool `json:"alwaysAsk,omitempty"`
	// ApprovalRule names the rule that set NeedsApproval, when one did
	// (an MCP server's approval setting, core/mcp): the record says which
	// rule asked.
	ApprovalRule string `json:"-"`
	// Idempotent declares that running a call again with the same
	// ToolContext.IdempotencyKey does no more than running it once. A
	// journaled run interrupted while an approved call of this tool ran
	// runs it again with the same key; for any other approved tool it asks
	// a person whether the call happened ("outcome_unknown"), never guessing.
	Idempotent bool `json:"idempotent,omitempty"`
	// RunsOnDecline makes a decline of a Request the tool itself suspended
	// with run the tool once more, with ToolContext.Answer.Ok false, instead
	// of the loop writing the refusal: a tool whose question left work
	// waiting elsewhere (a remote A2A task) can cancel it and say so. Its
	// result is what the model reads, always as an error result. A declined
	// approval (NeedsApproval) never runs the tool, flag or not.
	RunsOnDecline bool `json:"-"`
	// Execute runs the tool. ctx is never nil when the loop calls it.
	Execute func(args map[string]any, ctx *ToolContext) (ToolResult, error) `json:"-"`
	// Server is the configured name of the MCP server an MCP tool comes
	// from (empty for other tools); an approval request names it to the
	// person asked.
	Server string `json:"-"`
}
