//go:build !(js && wasm)

package worker

import "context"

var processMailbox = &memoryMailbox{}

// mcpMailbox natively is the process's memory.
func mcpMailbox(context.Context) mailbox { return processMailbox }
