// Package coreof hands toolnexus/agents the core values behind toolnexus's
// own types (Hooks, Client, Toolkit). Those types are declared in package
// toolnexus, so `go doc` shows them where a user imports them (issue 33);
// their core values are unexported there, and exporting the conversions
// would add names to the Go port's API, so toolnexus registers them here at
// init and toolnexus/agents calls them. An argument of the wrong type is a
// programming error of this repository (a panic), never a user's.
package coreof

import "github.com/toolnexus/wasm/core"

var (
	// Hooks is core's hooks for a *toolnexus.Hooks (nil for nil).
	Hooks func(h any) *core.Hooks
	// Client is the core client of a *toolnexus.Client.
	Client func(c any) *core.Client
	// Toolkit is the core toolkit of a *toolnexus.Toolkit.
	Toolkit func(tk any) *core.Toolkit
)
