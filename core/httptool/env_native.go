//go:build !js

package httptool

import "os"

// lookupEnv reads the process environment: native builds fill ${NAME} in
// HTTP tool headers from it.
func lookupEnv(name string) (string, bool) { return os.LookupEnv(name) }
