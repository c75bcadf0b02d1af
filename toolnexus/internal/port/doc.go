// Package port holds the Go port's shapes that differ from core's — its
// hooks, client and toolkit options, the client and toolkit that take
// them — and their conversions to core values. Package toolnexus names
// each (toolnexus.Hooks is port.Hooks); toolnexus/agents imports this
// package to hand a toolnexus value to core/agents (CoreHooks, CoreClient,
// CoreClientOptions, CoreToolkit).
package port
