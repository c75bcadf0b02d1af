//go:build js && wasm

package worker

import "github.com/toolnexus/wasm/internal/jsregexp"

// StateKVBinding is the KV namespace that, when bound, carries an MCP
// client's answer to an elicitation to the isolate whose tools/call waits
// for it (mcpmailbox_js.go). It no longer records resumed state tokens:
// that is the APPROVALS Durable Object's job (KV has no compare-and-set).
const StateKVBinding = "STATE_KV"

// PlatformOptions wires the handler to Cloudflare Workers: settings from the
// Worker environment, outbound HTTP over fetch, the ApprovalLedger Durable
// Object bound as APPROVALS as the spent-token store (none when unbound:
// resumes are then refused), CONVERSATIONS_KV (when bound) under
// the "conversation" field, FILES_R2 or FILES_KV (when bound) under the
// built-ins' file system, and JavaScript's RegExp for grep. The bindings are
// reached through syscall/js, not syumai/workers' cloudflare packages, whose
// init panics outside a Worker: so this package's tests load under Node.
func PlatformOptions() Options {
	return Options{
		Getenv:        workersGetenv,
		Transport:     FetchTransport(),
		Spent:         approvalsLedger(ApprovalsBinding),
		Conversations: kvConversations(ConversationsBinding),
		Files:         filesBinding,
		Match:         jsregexp.Matcher,
	}
}
