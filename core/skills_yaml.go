//go:build !js || !wasm || toolnexus_full

package core

import (
	"fmt"

	yaml "go.yaml.in/yaml/v3"
)

// parseYAMLMap reads SKILL.md frontmatter with go.yaml.in/yaml/v3. The
// default js/wasm build leaves the library out (about 245 KB of gzip'd wasm)
// and uses parseYAMLLite; build with -tags toolnexus_full to link it there.
func parseYAMLMap(b []byte) (map[string]any, error) {
	var m map[string]any
	if err := yaml.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	if m == nil {
		return nil, fmt.Errorf("the frontmatter is not a mapping")
	}
	return m, nil
}

// yamlParser names the frontmatter parser of this build.
const yamlParser = "go.yaml.in/yaml/v3"
