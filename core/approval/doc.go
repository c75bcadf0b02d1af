// Package approval is who approves what (issue 32): the rules that decide a
// tool call before it runs, the grants a person gives for the rest of a
// conversation ("allow for this conversation"), and the record of every
// decision, chained so that a removed or edited entry is found.
//
// Rules. A Rule list is read before a call runs, first match wins:
//
//	[{"name": "small refunds", "tool": "refund",
//	  "when": [{"path": "amount", "op": "<=", "value": 50}], "decision": "allow"},
//	 {"tool": "delete_*", "decision": "deny", "reason": "deleting is done by the team, not from chat"},
//	 {"source": "mcp", "server": "github", "decision": "ask"}]
//
// A rule matches a tool by name ("refund", "delete_*", "*"), by source
// (js, http, mcp, a2a, builtin, native, relay, skill, custom), by MCP
// server, by the asking agent (its name, or the end of its path:
// "support/billing") and by conditions on the call's arguments (JSON
// paths such as "amount" or "items.0.sku", with ==, !=, <, <=, >, >=,
// startsWith, oneOf). A condition on a path the arguments lack does not
// match. Decide returns the first matching rule's decision: allow (run
// without asking), deny (do not run; Reason is what the model is told) or
// ask (wait for a person); no match keeps the tool's own NeedsApproval. A
// call of a tool marked always-ask (Tool.AlwaysAsk) is asked about even
// when a rule allows it. Ask does not apply to a relay tool, whose calls
// the host answers anyway; core reads the rules again when an answer
// arrives, so a call they now deny does not run. Parse reads a list from JSON and reports every
// problem of it at once; Check does the same for a list built in Go.
//
// core applies a Policy's rules (core.Options.Approvals); an MCP server's
// "approval" setting is compiled into rules of the same shape, over each
// tool's listing (core/mcp), and an agent's guardrails become rules too
// (core/agents).
//
// Grants. A person who approves a call may allow its tool for the rest of
// the conversation (Answer.Data["grant"]: GrantArgs, the same arguments
// only, or GrantAny, any arguments). Grants approve a later call that
// would otherwise ask; they never beat a deny rule or an always-ask tool,
// never cross conversations, and can be revoked.
//
// The record. Each decision is an Entry: the call, the arguments the
// model asked for and the ones that ran, the decision and its reason, the
// rule or grant that decided or the person who did, where from and when.
// A Log chains entries as they are added (each carries the hash of the
// one before), Verify checks a chain and names the first entry that does
// not fit, and AppendJSONL / ParseJSONL move a record as JSON Lines.
package approval
