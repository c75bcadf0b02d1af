// Package toolnexus is the Go port of toolnexus's API
// (github.com/muthuishere/toolnexus, package toolnexus): code written for
// the port compiles and behaves the same with only its import path
// changed to github.com/toolnexus/wasm/toolnexus. It links the built-ins,
// skills and the MCP client itself, as the port does.
//
// It is an adapter over package core, not a second loop: where the port's
// shape is core's the name is core's (Tool, Request, Answer, RunResult …);
// where it differs — the port's Hooks over decoded messages, ClientOptions
// with OnError, BodyTransform over a decoded body and HTTPClient,
// RunResult.Messages as decoded maps, Options with McpConfig and the skill
// directories, Toolkit.McpStatus — it is toolnexus/internal/port's, which
// converts to core (toolnexus/agents uses those conversions too).
//
// Natively it reads what the port reads: the environment (ExpandEnvHeaders,
// HTTP tool headers), files (SkillsDir, an MCP config path) and an
// *http.Client. Under js/wasm it builds, and what a sandbox cannot do is an
// error that says so; no wasm build of this repository links it. New code,
// and code built for wasm, uses core directly.
package toolnexus
