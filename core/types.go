package core

import (
	"github.com/toolnexus/wasm/core/tool"
)

// The shared tool types live in package core/tool so that the packages
// around core (built-ins, skills, MCP) can use them without importing core.
// core re-exports each one under its own name: core.Tool is tool.Tool.

// JSONSchema is a JSON Schema object ({"type":"object","properties":{…}}),
// kept as a free-form map so it serializes exactly as written.
type JSONSchema = tool.JSONSchema

// ToolSource tells where a tool came from.
type ToolSource = tool.ToolSource

// The tool sources core knows. Hosts may use other values.
const (
	SourceNative = tool.SourceNative
	SourceRelay  = tool.SourceRelay
	SourceHTTP   = tool.SourceHTTP
	SourceJS     = tool.SourceJS
	SourceCustom = tool.SourceCustom
)

// ToolResult is what a tool hands back to the model.
type ToolResult = tool.ToolResult

// ToolContext is the per-call context a tool receives.
type ToolContext = tool.ToolContext

// Request is a suspension: a tool returns it under Metadata["pending"] when
// it needs something only a person or the host can give.
type Request = tool.Request

// Answer resolves a Request; ID echoes Request.ID.
type Answer = tool.Answer

// Tool is the one abstraction every tool source produces.
type Tool = tool.Tool

// Request kinds with a meaning in core. The vocabulary is open.
const (
	KindApproval      = tool.KindApproval
	KindAuthorization = tool.KindAuthorization
	KindInput         = tool.KindInput
	KindQuestion      = tool.KindQuestion
)

// AnswerOutput builds the Ok Answer carrying a payload: Data["output"].
//
//	a := AnswerOutput("req-1", "approved") // {ID:"req-1", Ok:true, Data:{"output":"approved"}}
func AnswerOutput(id string, output any) Answer { return tool.AnswerOutput(id, output) }

// AnswerDeclined builds the Answer for a refused Request: Ok false, no Data,
// and a Reason the loop feeds back to the model ("declined" when empty).
func AnswerDeclined(id, reason string) Answer { return tool.AnswerDeclined(id, reason) }

// Pending returns a suspension: a ToolResult whose Metadata["pending"] is
// req. An empty req.ID gets a fresh random id.
func Pending(req Request) ToolResult { return tool.Pending(req) }

// AuthRequired is the suspension for a login at url (kind "authorization").
func AuthRequired(url, prompt string) ToolResult { return tool.AuthRequired(url, prompt) }

// PendingOf returns the Request a result suspends with, or nil.
func PendingOf(result ToolResult) *Request { return tool.PendingOf(result) }

// newID returns prefix + 64 random bits in base 36 (see tool.NewID).
func newID(prefix string) string { return tool.NewID(prefix) }

// HTTPRequest is one outbound HTTP request of a Transport.
type HTTPRequest = tool.HTTPRequest

// HTTPResponse is a Transport's answer; Body must be closed.
type HTTPResponse = tool.HTTPResponse

// Transport carries HTTP for the client, HTTP tools, webfetch and MCP.
type Transport = tool.Transport

// TransportFunc adapts a function to Transport.
type TransportFunc = tool.TransportFunc

// DefaultTransport is net/http natively; under js/wasm it fails every call
// (set ClientOptions.Transport; the JS bridge supplies one over fetch).
func DefaultTransport() Transport { return tool.DefaultTransport() }

func defaultTransport() Transport { return tool.DefaultTransport() }
