//go:build !(js && wasm)

package worker

var processMailbox = &memoryMailbox{}

// The default mailbox natively is the process's memory.
func init() { defaultMailbox = func() Mailbox { return processMailbox } }
