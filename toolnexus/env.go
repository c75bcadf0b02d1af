package toolnexus

import "os"

// lookupEnv reads the process environment (under js/wasm Go's os package
// has none to give).
func lookupEnv(name string) (string, bool) { return os.LookupEnv(name) }
