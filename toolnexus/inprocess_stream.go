package toolnexus

import (
	"errors"

	core "github.com/toolnexus/wasm/core"
)

// errInProcessStream is a streamed in-process run's error.
var errInProcessStream = errors.New("toolnexus: an in-process model does not support streaming; use Run")

// CreateInProcessClient builds a client whose model is opts.Generate, a
// function in this process, run by the same loop as any other client.
// Streaming is refused, not imitated: a Stream of this client ends with an
// error event (and no text), since Generate returns its reply whole.
func CreateInProcessClient(opts InProcessOptions) *Client {
	if gen := opts.Generate; gen != nil {
		opts.Generate = func(req InProcessRequest) (InProcessResponse, error) {
			if on, _ := req.Body["stream"].(bool); on {
				return InProcessResponse{}, errInProcessStream
			}
			return gen(req)
		}
	}
	opts.OnMetric = portMetricSink(opts.OnMetric)
	return core.CreateInProcessClient(opts)
}
