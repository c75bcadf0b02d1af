package agents

import "strings"

// Handle returns the handle with this id ("root/support.1/billing.1"), or
// false when the runtime has none: Root for "root", and closed handles too
// (their last result and transcript stay readable). A restored runtime
// hands out no *Handle of its own, so a host that kept only ids (from List,
// a snapshot, a pending request's Data["handle"]) drives it through this.
// The port has no such lookup: there a handle is only ever held by whoever
// spawned it.
func (rt *Runtime) Handle(id string) (*Handle, bool) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	h := rt.Root
	if id == h.ID {
		return h, true
	}
	// Ids are parent-scoped paths, so the walk follows the id's prefixes
	// instead of visiting the whole tree.
	for h != nil && id != h.ID {
		if !strings.HasPrefix(id, h.ID+"/") {
			return nil, false
		}
		next := (*Handle)(nil)
		for _, c := range h.children {
			if c.ID == id || strings.HasPrefix(id, c.ID+"/") {
				next = c
				break
			}
		}
		h = next
	}
	return h, h != nil
}

// errNilHandle is what the verbs answer for a nil *Handle (a lookup that
// found nothing, used unchecked) instead of a nil dereference: under
// js/wasm a panic would end the whole instance.
const errNilHandle = "agents: nil handle (Runtime.Handle found no such id?)"
