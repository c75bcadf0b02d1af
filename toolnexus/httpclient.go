//go:build !js

package toolnexus

import (
	"net/http"

	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/core/tool"
)

// httpClientTransport carries provider requests over c.
func httpClientTransport(c *http.Client) core.Transport { return tool.HTTPClientTransport(c) }
