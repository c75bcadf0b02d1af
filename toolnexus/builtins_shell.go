//go:build !js

package toolnexus

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"time"
)

// shellTool is the bash built-in: it runs the command with sh -c, in
// workdir when given, and returns stdout and stderr together. A non-zero
// exit is an error result whose Metadata["exitCode"] holds the code; the
// command is killed after timeout milliseconds (default 60000) or when the
// run's context ends.
func shellTool() Tool {
	return hostTool("bash", shellDescription, shellSchema(),
		func(args map[string]any, tctx *ToolContext) (ToolResult, error) {
			command := stringArg(args, "command")
			if command == "" {
				return ToolResult{}, errors.New("command is required")
			}
			ms := 60000.0
			if v, ok := numberArg(args, "timeout"); ok && v > 0 {
				ms = v
			}
			ctx := context.Background()
			if tctx != nil && tctx.Ctx != nil {
				ctx = tctx.Ctx
			}
			ctx, cancel := context.WithTimeout(ctx, time.Duration(ms*float64(time.Millisecond)))
			defer cancel()
			cmd := exec.CommandContext(ctx, "sh", "-c", command)
			cmd.Dir = stringArg(args, "workdir")
			out, err := cmd.CombinedOutput()
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				return ToolResult{Output: fmt.Sprintf("bash: timed out after %d ms\n%s", int(ms), out), IsError: true}, nil
			}
			var exit *exec.ExitError
			if errors.As(err, &exit) {
				code := exit.ExitCode()
				return ToolResult{Output: fmt.Sprintf("%s\nbash: exit code %d", out, code), IsError: true, Metadata: map[string]any{"exitCode": code}}, nil
			}
			if err != nil {
				return ToolResult{}, err
			}
			return ToolResult{Output: string(out), Metadata: map[string]any{"exitCode": 0}}, nil
		})
}
