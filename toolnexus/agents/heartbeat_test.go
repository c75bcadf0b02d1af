package agents

import (
	"strings"
	"sync"
	"testing"
	"time"
)

// stepClock fires its After channels only when step is called.
type stepClock struct {
	mu    sync.Mutex
	now   time.Time
	armed []chan time.Time
}

func (c *stepClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }

func (c *stepClock) After(d time.Duration) <-chan time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	ch := make(chan time.Time, 1)
	c.armed = append(c.armed, ch)
	return ch
}

// step fires every armed channel once one is armed (bounded wait).
func (c *stepClock) step(t *testing.T) {
	t.Helper()
	for i := 0; i < 500; i++ {
		c.mu.Lock()
		if len(c.armed) > 0 {
			c.now = c.now.Add(time.Minute)
			for _, ch := range c.armed {
				ch <- c.now
			}
			c.armed = nil
			c.mu.Unlock()
			return
		}
		c.mu.Unlock()
		time.Sleep(2 * time.Millisecond)
	}
	t.Fatal("the heartbeat never waited on the clock")
}

// TestHeartbeatReportsOnlyWhatNeedsAction: a beat the persona answers
// with HEARTBEAT_OK stays silent; one with news reaches OnBeat and Beats.
func TestHeartbeatReportsOnlyWhatNeedsAction(t *testing.T) {
	beat := 0
	model := &chatModel{reply: func(string, []map[string]any) map[string]any {
		beat++
		if beat == 2 {
			return say("the kettle is on")
		}
		return say(HeartbeatOK)
	}}
	var heard []string
	var mu sync.Mutex
	clk := &stepClock{}
	sa, err := StartAgent(New("ava", Spec{Does: "watches"}), StartOptions{
		Options: Options{Transport: model, Clock: clk}, EveryMs: 60_000,
		OnBeat: func(s string) { mu.Lock(); heard = append(heard, s); mu.Unlock() },
	})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		clk.step(t)
		<-sa.beat
	}
	sa.Stop()
	mu.Lock()
	defer mu.Unlock()
	if strings.Join(heard, "|") != "the kettle is on" || strings.Join(sa.Beats(), "|") != "the kettle is on" {
		t.Errorf("heard %v, beats %v", heard, sa.Beats())
	}
	if got := sa.Runtime().StateOf(sa.Handle()); got != StateClosed {
		t.Errorf("after Stop the persona is %s, want closed", got)
	}
}
