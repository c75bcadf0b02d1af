//go:build js && wasm && !toolnexus_tools && !toolnexus_full && !toolnexus_skills

package core

import (
	"context"
	"strings"
	"testing"
	"testing/fstest"
)

func TestLeanBuildHasNoTools(t *testing.T) {
	for _, opts := range []Options{{}, {Builtins: false}} {
		tk, err := CreateToolkit(context.Background(), opts)
		if err != nil || len(tk.Tools()) != 0 {
			t.Fatalf("%+v: tools %v err %v", opts, tk.Tools(), err)
		}
	}
	for _, opts := range []Options{{Builtins: true}, {Builtins: map[string]bool{"read": false}}, {Builtins: false, Skills: fstest.MapFS{}}} {
		if _, err := CreateToolkit(context.Background(), opts); err == nil || !strings.Contains(err.Error(), "toolnexus_tools") {
			t.Fatalf("%+v: err %v, want the build tag named", opts, err)
		}
	}
}
