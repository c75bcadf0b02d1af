package toolnexus

import "github.com/tidwall/gjson"

// reservedKeys are the blocks of the Go port's config object that sit
// beside an MCP server map without being servers: the built-ins, remote
// A2A agents, and the A2A and MCP profiles Serve reads.
var reservedKeys = map[string]bool{"builtins": true, "agents": true, "a2a": true, "mcpServer": true}

// withoutReserved is an MCP config without the reserved blocks, when its
// servers are the whole object (no "mcpServers", "servers" or "mcp" key),
// so that they are not taken for servers, as in the Go port.
func withoutReserved(data []byte) []byte {
	doc := gjson.ParseBytes(data)
	if !doc.IsObject() || doc.Get("mcpServers").Exists() || doc.Get("servers").Exists() || doc.Get("mcp").Exists() {
		return data
	}
	found := false
	doc.ForEach(func(k, _ gjson.Result) bool {
		found = reservedKeys[k.String()]
		return !found
	})
	if !found {
		return data
	}
	out := []byte{'{'}
	doc.ForEach(func(k, v gjson.Result) bool {
		if !reservedKeys[k.String()] {
			if len(out) > 1 {
				out = append(out, ',')
			}
			out = append(append(append(out, k.Raw...), ':'), v.Raw...)
		}
		return true
	})
	return append(out, '}')
}
