//go:build js && wasm

package worker

import "github.com/toolnexus/wasm/internal/jsregexp"

// SpentBinding is the KV namespace binding that, when present, records
// resumed state tokens so that reuse is refused with 409.
const SpentBinding = "STATE_KV"

// PlatformOptions wires the handler to Cloudflare Workers: settings from the
// Worker environment, outbound HTTP over fetch, the STATE_KV namespace
// (when bound) as the spent-token store, CONVERSATIONS_KV (when bound) under
// the "conversation" field, FILES_R2 or FILES_KV (when bound) under the
// built-ins' file system, and JavaScript's RegExp for grep. The bindings are
// reached through syscall/js, not syumai/workers' cloudflare packages, whose
// init panics outside a Worker: so this package's tests load under Node.
func PlatformOptions() Options {
	return Options{
		Getenv:        workersGetenv,
		Transport:     FetchTransport(),
		Spent:         kvSpent(SpentBinding),
		Conversations: kvConversations(ConversationsBinding),
		Files:         filesBinding,
		Match:         jsregexp.Matcher,
	}
}
