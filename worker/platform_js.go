//go:build js && wasm

package worker

import "github.com/toolnexus/wasm/internal/jsregexp"

// SpentBinding is the KV namespace binding that, when present, records
// resumed state tokens so that reuse is refused with 409.
const SpentBinding = "STATE_KV"

// PlatformOptions wires the handler to Cloudflare Workers: settings from the
// Worker environment, outbound HTTP over fetch, and the STATE_KV namespace
// (when bound) as the spent-token store, FILES_R2 or FILES_KV (when bound)
// under the built-ins' file system, and JavaScript's RegExp for grep. The CONVERSATIONS_KV store is
// added by wasm/worker (withConversationsKV), which may import
// syumai/workers' cloudflare/kv: this package must not, or its tests would
// not load under Node.
func PlatformOptions() Options {
	return Options{
		Getenv:    workersGetenv,
		Transport: FetchTransport(),
		Spent:     kvSpent(SpentBinding),
		Files:     filesBinding,
		Match:     jsregexp.Matcher,
	}
}
