package main

import "testing"

// TestPortProgramRunsUnchanged runs the program: it exits the test binary
// with a FAIL line at the first result that differs from the port's.
func TestPortProgramRunsUnchanged(t *testing.T) { main() }
