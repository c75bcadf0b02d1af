package mcp

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/toolnexus/wasm/internal/jsonx"
)

// mcpCancelWait bounds the notifications/cancelled message: the call has
// already failed, so its error must not wait long behind a slow server.
const mcpCancelWait = 2 * time.Second

// notifyCancelled tells the server that the client stopped waiting for
// request id (its ctx timed out or was cancelled), so that the server can
// stop the work: a notifications/cancelled with the request id and a
// reason. initialize is never cancelled (the protocol forbids it). The
// notification is best effort: a failure to deliver it is ignored.
func (s *mcpServer) notifyCancelled(ctx context.Context, id int64, method string) {
	if ctx.Err() == nil || method == "initialize" || s.conn == nil {
		return
	}
	reason := "the client cancelled the request"
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		reason = "the client timed out waiting for the response"
	}
	wait := min(s.timeout(), mcpCancelWait)
	nctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	params := `{"requestId":` + strconv.FormatInt(id, 10) + `,"reason":` + string(jsonx.AppendString(nil, reason)) + `}`
	_ = s.conn.send(nctx, mcpMessage(0, "notifications/cancelled", params))
}
