package tool

// AllowedByFilter applies a filter by name, the Go port's way for MCP
// tools (a server's "tools") and skills (SkillsFilter): no filter keeps
// every name; a filter with any true value is an allowlist; one with only
// false values is a drop-list. A name the filter lists that matches
// nothing is ignored.
func AllowedByFilter(name string, filter map[string]bool) bool {
	if len(filter) == 0 {
		return true
	}
	allow := false
	for _, v := range filter {
		allow = allow || v
	}
	v, listed := filter[name]
	if allow {
		return listed && v
	}
	return !listed
}
