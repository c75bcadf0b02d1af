// Package agents is the Go port's agent API (github.com/muthuishere/
// toolnexus/golang/agents), exactly: code written for it compiles and
// behaves the same with only the import path changed.
//
// It is an adapter over the kernel, core/agents, which runs every turn:
// the types whose shape is the port's (Options with an http.RoundTripper,
// Spec and Def over toolnexus values, Runtime.Resume returning an error,
// the Compactor as a BeforeLLM hook) wrap the kernel's, and the rest are
// aliases. The persona home (FromDir, MemoryTool, StartAgent) reads and
// writes files; under js/wasm, which has no file system, it reports so.
//
// Every conversion from a toolnexus value to a core value is in
// coreconv.go.
package agents
