package workertest

import (
	"context"

	"github.com/toolnexus/wasm/core"
)

// Swappable is a Transport that sends through *cur as it is at each
// request, so a test can wrap or replace its Worker's transport after the
// handler is built; a nil *cur is core's default (natively: net/http).
func Swappable(cur *core.Transport) core.Transport {
	return core.TransportFunc(func(ctx context.Context, r *core.HTTPRequest) (*core.HTTPResponse, error) {
		t := *cur
		if t == nil {
			t = core.DefaultTransport()
		}
		return t.Do(ctx, r)
	})
}
