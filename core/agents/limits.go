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
