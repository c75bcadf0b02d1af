package agents

import (
	"math"
	"time"
)

// MaxWallMsLimit is the largest Budget.MaxWall a host may give in
// milliseconds: beyond it the time.Duration overflows (and would wrap to a
// cap in the past). About 292 years.
const MaxWallMsLimit = int64(math.MaxInt64 / int64(time.Millisecond))

const maxWallMs = MaxWallMsLimit

// MaxTreeDepth bounds how deep a tree may grow whatever Budget.MaxDepth
// says: Close, List and Snapshot walk the tree recursively, and under
// js/wasm every Go call is a frame on the JS engine's stack (see
// jsonx.MaxDepth), so an unbounded depth could end the host process.
const MaxTreeDepth = 64
