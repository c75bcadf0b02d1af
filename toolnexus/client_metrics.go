package toolnexus

import (
	"strconv"

	core "github.com/toolnexus/wasm/core"
)

// CreateClient builds a client for an OpenAI- or Anthropic-style endpoint
// (see ClientOptions). Its OnMetric sees a model call's Status as the Go
// port words it: "ok" for an answered call, "error" for any other (core
// reports the HTTP status, "error" or "cancelled").
func CreateClient(opts ClientOptions) *Client {
	opts.OnMetric = portMetricSink(opts.OnMetric)
	return core.CreateClient(opts)
}

// portMetricSink wraps an OnMetric so that "llm" events carry the port's
// status words; nil stays nil.
func portMetricSink(sink func(MetricEvent)) func(MetricEvent) {
	if sink == nil {
		return nil
	}
	return func(e MetricEvent) {
		if e.Kind == "llm" {
			e.Status = llmStatusWord(e.Status)
		}
		sink(e)
	}
}

// llmStatusWord is "ok" for a 2xx HTTP status (or "ok" itself), else "error".
func llmStatusWord(status string) string {
	if status == "ok" {
		return status
	}
	if code, err := strconv.Atoi(status); err == nil && code >= 200 && code < 300 {
		return "ok"
	}
	return "error"
}
