package core

import "time"

// clockBase anchors clock.
var clockBase = time.Now()

// clock reads the monotonic clock alone, as the time since clockBase, for
// measuring durations: time.Now reads the wall clock as well, and in wasm
// every read is a call out to JS.
func clock() time.Duration { return time.Since(clockBase) }
