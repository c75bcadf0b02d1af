// Package wire is the provider wire formats of toolnexus-wasm: how a
// request to an OpenAI chat-completions or Anthropic messages endpoint is
// shaped, how its reply (whole, or as server-sent events) is read back into
// an LLMResponse, how a transcript's user, assistant and tool-result
// messages are written in each style, and how Client.Translate converts an
// OpenAI-shaped request for an Anthropic server.
//
// It knows nothing of the loop, tools or toolkits, and does not import
// core: core picks a Format with For and drives it, and re-exports the
// public types (core.Usage is wire.Usage). Programs use core's names; the
// package is for core and for code that speaks a provider's format itself.
//
// Errors read as core's ("core: provider error: …"): they reach callers
// through core's API, whose error texts are part of its behaviour.
package wire
