package worker

import (
	"strings"
	"testing"
)

func TestVariableNames(t *testing.T) {
	got := strings.Join(variableNames(`{"a":"Bearer ${A}","b":"${B}-${C}","c":"${unterminated`), ",")
	if got != "A,B,C" {
		t.Errorf("got %s", got)
	}
}
