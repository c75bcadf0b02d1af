package core

import (
	"errors"
	"math/rand/v2"
	"time"
)

// ErrorAction is what ClientOptions.ClassifyError decides for a failed
// provider request.
type ErrorAction string

// The classifier's decisions.
const (
	ErrorDefault ErrorAction = ""      // the default: Retryable decides
	ErrorRetry   ErrorAction = "retry" // retry, while attempts remain
	ErrorFail    ErrorAction = "fail"  // give up now
)

const (
	defaultRetries     = 2
	defaultRetryBaseMs = 500
	maxRetryDelay      = 60 * time.Second
)

// Retryable is the default classification of a failed provider request:
// rate limits, server errors (429, 500, 502, 503, 504, and 529, Anthropic's
// "overloaded"), the statuses in extra and network failures are worth
// another try; everything else will fail again.
func Retryable(err error, extra []int) bool {
	if pe, ok := errors.AsType[*ProviderError](err); ok {
		switch pe.Status {
		case 429, 500, 502, 503, 504, 529:
			return true
		}
		// A loop, not slices.Contains: core's only use of it would link
		// its generic instances into the wasm build.
		for _, s := range extra {
			if s == pe.Status {
				return true
			}
		}
		return false
	}
	_, ok := errors.AsType[*networkError](err)
	return ok
}

// ErrTransport is what errors.Is finds in a run's error when the request
// never got an HTTP reply (connection refused or reset, DNS, a fetch that
// rejected).
var ErrTransport = errors.New("core: transport failed")

// networkError marks a failure to exchange bytes with the provider.
type networkError struct{ err error }

func (e *networkError) Error() string        { return e.err.Error() }
func (e *networkError) Unwrap() error        { return e.err }
func (e *networkError) Is(target error) bool { return target == ErrTransport }

// retryAfter reads a Retry-After header in its delay-seconds form only
// (digits, 0 allowed). Anything else — a date, a fraction, garbage — gives
// -1, which means "use the backoff".
func retryAfter(h string) time.Duration {
	if h == "" || len(h) > 9 {
		return -1
	}
	n := 0
	for _, c := range h {
		if c < '0' || c > '9' {
			return -1
		}
		n = n*10 + int(c-'0')
	}
	return min(time.Duration(n)*time.Second, maxRetryDelay)
}

// backoff is base·2^attempt with ±50% jitter, so clients that failed
// together do not retry together.
func backoff(baseMs, attempt int) time.Duration {
	d := time.Duration(baseMs) * time.Millisecond << min(attempt, 16)
	d = time.Duration(float64(d) * (0.5 + rand.Float64()))
	return min(d, maxRetryDelay)
}
