package toolnexus

import (
	"fmt"

	"github.com/toolnexus/wasm/core"
)

// builtinsObject reads the Go port's config object (the "builtins" key of
// its JSON configuration, decoded): "enabled": false or "disabled": true
// turn every built-in off, "tools" maps names to on/off. Its other keys
// (shell, baseDir, …) have no meaning in core's sandbox and are ignored.
func builtinsObject(m map[string]any) (cfg core.BuiltinsConfig, ok bool, err error) {
	if on, set := m["enabled"].(bool); set && !on {
		return cfg, false, nil
	}
	if off, _ := m["disabled"].(bool); off {
		return cfg, false, nil
	}
	if tools, set := m["tools"]; set {
		list, isMap := tools.(map[string]any)
		if !isMap {
			return cfg, false, fmt.Errorf("Builtins: \"tools\" must map names to booleans, got %T", tools)
		}
		cfg.Tools = make(map[string]bool, len(list))
		for name, v := range list {
			on, isBool := v.(bool)
			if !isBool {
				return cfg, false, fmt.Errorf("Builtins: tools[%q] must be a boolean, got %T", name, v)
			}
			cfg.Tools[name] = on
		}
	}
	return cfg, true, nil
}
