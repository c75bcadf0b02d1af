package worker

import (
	"crypto/rand"
	"encoding/hex"
)

// RandomHex returns n random bytes as hex: the ids of chat completions and
// MCP sessions.
func RandomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
