package promtext

import (
	"strconv"
	"testing"
)

func TestLabelEscaping(t *testing.T) {
	if got := labels("tool", "a\"b\\c\nd"); got != `tool="a\"b\\c\nd"` {
		t.Fatalf("labels = %s", got)
	}
}

// TestRenderedLabelsAreBounded: the cache of rendered label sets stops
// growing at maxRendered; past it sets are rendered each time, the same.
func TestRenderedLabelsAreBounded(t *testing.T) {
	r := New(nil, nil)
	for i := range maxRendered + 10 {
		ls := LabelSet{"tool", "x" + strconv.Itoa(i)}
		if got, want := r.Labels(ls), `tool="x`+strconv.Itoa(i)+`"`; got != want {
			t.Fatalf("Labels = %s, want %s", got, want)
		}
	}
	if len(r.rendered) > maxRendered {
		t.Fatalf("%d rendered label sets kept, bound %d", len(r.rendered), maxRendered)
	}
}
