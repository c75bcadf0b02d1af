package worker

import "sort"

// RouteKeys lists the routes h serves (the docs test in routes_doc_test.go
// holds the READMEs to them).
func RouteKeys(h *Handler) []string {
	keys := make([]string, 0, len(h.routes))
	for k := range h.routes {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
