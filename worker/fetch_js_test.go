//go:build js && wasm

package worker

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"syscall/js"
	"testing"
	"time"

	"github.com/toolnexus/wasm/core"
)

// nodeServer starts a Node http server on 127.0.0.1 (go_js_wasm_exec runs
// the test binary in Node) and returns its base URL. handle gets Node's
// (req, res) and the request body as text.
func nodeServer(t *testing.T, handle func(req, res js.Value, body string)) string {
	t.Helper()
	require := js.Global().Get("require")
	if require.Type() != js.TypeFunction {
		t.Skip("not running in Node")
	}
	var onRequest, onListen js.Func
	onRequest = js.FuncOf(func(_ js.Value, args []js.Value) any {
		req, res := args[0], args[1]
		var chunks []string
		var onData, onEnd js.Func
		onData = js.FuncOf(func(_ js.Value, a []js.Value) any {
			chunks = append(chunks, a[0].Call("toString").String())
			return nil
		})
		onEnd = js.FuncOf(func(js.Value, []js.Value) any {
			onData.Release()
			onEnd.Release()
			handle(req, res, strings.Join(chunks, ""))
			return nil
		})
		req.Call("on", "data", onData)
		req.Call("on", "end", onEnd)
		return nil
	})
	listening := make(chan struct{})
	onListen = js.FuncOf(func(js.Value, []js.Value) any {
		close(listening)
		return nil
	})
	srv := require.Invoke("http").Call("createServer", onRequest)
	srv.Call("listen", 0, "127.0.0.1", onListen)
	<-listening
	t.Cleanup(func() {
		srv.Call("closeAllConnections")
		srv.Call("close")
		onRequest.Release()
		onListen.Release()
	})
	return fmt.Sprintf("http://127.0.0.1:%d", srv.Call("address").Get("port").Int())
}

func TestFetchTransportRoundTrip(t *testing.T) {
	url := nodeServer(t, func(req, res js.Value, body string) {
		headers := js.Global().Get("Object").New()
		headers.Set("X-Reply", "yes")
		res.Call("writeHead", 201, headers)
		res.Call("end", req.Get("method").String()+" "+req.Get("headers").Get("x-test").String()+" "+body)
	})
	resp, err := FetchTransport().Do(context.Background(), &core.HTTPRequest{
		Method: "POST", URL: url + "/echo", Header: map[string]string{"X-Test": "t1"}, Body: []byte(`{"a":1}`),
	})
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.Status != 201 || resp.Header["x-reply"] != "yes" || string(body) != `POST t1 {"a":1}` {
		t.Fatalf("got %d %v %q", resp.Status, resp.Header, body)
	}
}

func TestFetchTransportCancel(t *testing.T) {
	url := nodeServer(t, func(req, res js.Value, body string) {}) // never answers
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := FetchTransport().Do(ctx, &core.HTTPRequest{Method: "GET", URL: url + "/hang"})
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 5*time.Second {
		t.Fatalf("err = %v after %v, want a prompt deadline error", err, time.Since(start))
	}
}

func TestFetchTransportUnreachable(t *testing.T) {
	_, err := FetchTransport().Do(context.Background(), &core.HTTPRequest{Method: "GET", URL: "http://127.0.0.1:9/"})
	if err == nil || !strings.HasPrefix(err.Error(), "worker: fetch failed: ") {
		t.Fatalf("err = %v", err)
	}
}
