//go:build !js

package core

import "os"

// lookupEnv reads the process environment: native builds fill ${NAME} in
// HTTP tool headers (and ExpandEnvHeaders) from it, as the Go port does.
func lookupEnv(name string) (string, bool) { return os.LookupEnv(name) }
