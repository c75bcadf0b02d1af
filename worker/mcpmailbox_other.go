//go:build !(js && wasm)

package worker

var processMailbox = &memoryMailbox{}

// mcpMailbox natively is the process's memory.
func mcpMailbox(func(string) string) mailbox { return processMailbox }
