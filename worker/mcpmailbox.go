package worker

import (
	"context"
	"sync"
)

// Mailbox hands a client's answer to an elicitation from the request that
// brings it to the request waiting for it (possibly another instance).
type Mailbox interface {
	Put(ctx context.Context, key string, value []byte) error
	// Take returns and removes the value under key, if there is one.
	Take(ctx context.Context, key string) ([]byte, bool, error)
}

// defaultMailbox is Options.Mailbox when none is given: natively the
// process's memory (mcpmailbox_other.go); under js nil, since the platform
// (worker/cfworker) always binds one, and so the Worker links no memory
// mailbox.
var defaultMailbox func() Mailbox

// MailboxCap bounds the answers kept in memory: an answer nobody waits
// for any more (its tools/call gave up) is dropped when the cap is reached.
const MailboxCap = 256

// memoryMailbox serves one process (native builds and tests).
type memoryMailbox struct {
	mu sync.Mutex
	m  map[string][]byte
}

func (b *memoryMailbox) Put(_ context.Context, key string, value []byte) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.m == nil || len(b.m) >= MailboxCap {
		b.m = map[string][]byte{}
	}
	b.m[key] = value
	return nil
}

func (b *memoryMailbox) Take(_ context.Context, key string) ([]byte, bool, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	v, ok := b.m[key]
	delete(b.m, key)
	return v, ok, nil
}
