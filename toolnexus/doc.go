// Package toolnexus is the Go port of toolnexus's API
// (github.com/muthuishere/toolnexus, package toolnexus): code written for
// the port compiles and behaves the same with only its import path
// changed to github.com/toolnexus/wasm/toolnexus. It links the built-ins,
// skills and the MCP client itself, as the port does.
//
// It is an adapter over package core, not a second loop: where the port's
// shape is core's the name is core's (Tool, Request, Answer, RunResult …),
// an alias whose comment shows core's declaration (core_types.go, written
// by go generate), so values pass between toolnexus and core unconverted;
// where it differs — the port's Hooks over decoded messages, ClientOptions
// with OnError, BodyTransform over a decoded body and HTTPClient,
// RunResult.Messages as decoded maps, Options with McpConfig and the skill
// directories, Toolkit.McpStatus — the type is this package's own and
// converts to core (toolnexus/agents reaches those conversions through
// toolnexus/internal/coreof). go doc shows either with its fields.
//
// Natively it reads what the port reads: the environment (ExpandEnvHeaders,
// HTTP tool headers), files (SkillsDir, an MCP config path) and an
// *http.Client. Under js/wasm it builds, and what a sandbox cannot do is an
// error that says so; no wasm build of this repository links it. New code,
// and code built for wasm, uses core directly.
package toolnexus

//go:generate go run ./internal/aliasdoc
