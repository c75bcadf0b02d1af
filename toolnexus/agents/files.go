//go:build !js

package agents

import (
	"fmt"
	"os"
	"path/filepath"
)

// readFile is a persona file's text.
func readFile(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("agents: read %s: %w", path, err)
	}
	return string(b), nil
}

// writeFile replaces a persona file, creating its directory.
func writeFile(path, text string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("agents: write %s: %w", path, err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		return fmt.Errorf("agents: write %s: %w", path, err)
	}
	return nil
}
