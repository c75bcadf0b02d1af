//go:build js

package agents

import (
	"errors"
	"fmt"
)

// errNoFiles: a js/wasm sandbox (browser tab, Worker) has no file system,
// so a persona home cannot be read or written there.
var errNoFiles = errors.New("no file system under js/wasm")

func readFile(path string) (string, error) {
	return "", fmt.Errorf("agents: read %s: %w", path, errNoFiles)
}

func writeFile(path, _ string) error {
	return fmt.Errorf("agents: write %s: %w", path, errNoFiles)
}
