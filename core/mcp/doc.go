// Package mcp is toolnexus' client of remote MCP servers (the Model Context
// Protocol over streamable HTTP, with the older HTTP+SSE as a fallback): it
// reads a Claude-desktop style configuration (Parse), connects every server
// (Connect), and turns each server's tools into tools of the toolkit, with
// approvals, elicitations and cancellation.
//
// A program links it by importing it for its side effect:
//
//	import _ "github.com/toolnexus/wasm/core/mcp"
//
// Its init registers Parse and Connect with core/tool's registry; core's
// Options.MCP, ParseMCPConfig and Toolkit.McpStatus then use them. Without
// the import, an MCP configuration is an error that names it. Every wasm
// main of this repository imports it (MCP runs over the host's fetch).
package mcp
