//go:build !js

package agents

import "os"

// readSoulFile reads Spec.SoulFile; ok is false when it cannot be read.
func readSoulFile(path string) (string, bool) {
	b, err := os.ReadFile(path)
	return string(b), err == nil
}
