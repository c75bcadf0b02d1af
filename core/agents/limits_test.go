package agents

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestTreeDepthHasAHardCap: a budget's MaxDepth cannot grow a tree past
// MaxTreeDepth, and neither can an edited snapshot.
func TestTreeDepthHasAHardCap(t *testing.T) {
	a := New("deep", Spec{Soul: "deep", Budget: &Budget{MaxDepth: 1 << 40}})
	rt := NewRuntime(Options{Registry: a.Registry()})
	defer rt.Close(rt.Root, &CloseOptions{Force: true})
	h := rt.Root
	for i := 1; i <= MaxTreeDepth; i++ {
		var err error
		if h, err = rt.Spawn(h, "deep", nil); err != nil {
			t.Fatalf("spawn at depth %d: %v", i, err)
		}
	}
	_, err := rt.Spawn(h, "deep", nil)
	var le *LimitError
	if !errors.As(err, &le) || le.Limit != LimitMaxDepth || !strings.Contains(err.Error(), fmt.Sprint(MaxTreeDepth)) {
		t.Errorf("spawn past MaxTreeDepth = %v, want a maxDepth LimitError naming %d", err, MaxTreeDepth)
	}

	for _, tc := range []struct {
		depth int
		want  string
	}{{MaxTreeDepth, ""}, {MaxTreeDepth + 1, "edited or corrupt"}, {5000, "edited or corrupt"}} {
		t.Run(fmt.Sprint(tc.depth), func(t *testing.T) {
			var b strings.Builder
			b.WriteString(`{"version":1,"handles":[`)
			parent := "root"
			for i := 0; i < tc.depth; i++ {
				id := parent + "/deep.1"
				if i > 0 {
					b.WriteByte(',')
				}
				fmt.Fprintf(&b, `{"id":%q,"agent":"deep","parent":%q,"state":"idle","maxTurns":6,"maxConcurrent":8,"maxDepth":1099511627776}`, id, parent)
				parent = id
			}
			b.WriteString(`]}`)
			rt, err := RestoreRuntime(Options{Registry: a.Registry()}, []byte(b.String()))
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				if n := len(rt.List()); n != tc.depth {
					t.Errorf("restored %d handles, want %d", n, tc.depth)
				}
				rt.Close(rt.Root, nil)
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want one containing %q", err, tc.want)
			}
		})
	}
}
