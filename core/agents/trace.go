package agents

import (
	fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx
	"strconv"
)

// tracef hands one transition line to Options.OnTrace. The lines use the
// vocabulary the ports share ("root/a.1: idle→running (wake)"), so a host
// can compare a run's trace with another port's fixture. Nothing is
// formatted when OnTrace is nil. It may run with rt.mu held: OnTrace must
// not call back into the runtime.
func (rt *Runtime) tracef(format string, args ...any) {
	if rt.opts.OnTrace == nil {
		return
	}
	line := fmt.Sprintf(format, args...)
	defer func() { _ = recover() }() // an observer must not break the runtime
	rt.opts.OnTrace(line)
}

// poolString renders a token pool as the trace shows it.
func poolString(v int64) string {
	if v >= Unlimited {
		return "Infinity"
	}
	return strconv.FormatInt(v, 10)
}
