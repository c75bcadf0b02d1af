//go:build js && wasm

// The transport and the glue (glue.go) that package worker shares with the
// browser build, against a Node http server (go_js_wasm_exec runs the test
// binary in Node).

package jsbridge

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

// newTransport is the transport over globalThis.fetch (Node's).
func newTransport(t *testing.T) *FetchTransport {
	t.Helper()
	tr, err := NewFetchTransport(js.Undefined())
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func TestFetchTransportRoundTrip(t *testing.T) {
	url := nodeServer(t, func(req, res js.Value, body string) {
		headers := js.Global().Get("Object").New()
		headers.Set("X-Reply", "yes")
		res.Call("writeHead", 201, headers)
		res.Call("end", req.Get("method").String()+" "+req.Get("headers").Get("x-test").String()+" "+body)
	})
	resp, err := newTransport(t).Do(context.Background(), &core.HTTPRequest{
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
	_, err := newTransport(t).Do(ctx, &core.HTTPRequest{Method: "GET", URL: url + "/hang"})
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 5*time.Second {
		t.Fatalf("err = %v after %v, want a prompt deadline error", err, time.Since(start))
	}
}

func TestFetchTransportUnreachable(t *testing.T) {
	_, err := newTransport(t).Do(context.Background(), &core.HTTPRequest{Method: "GET", URL: "http://127.0.0.1:9/"})
	if err == nil || !strings.HasPrefix(err.Error(), "fetch failed: ") {
		t.Fatalf("err = %v", err)
	}
}

func TestFetchTransportStreamsEventStreams(t *testing.T) {
	release := make(chan struct{})
	url := nodeServer(t, func(req, res js.Value, body string) {
		headers := js.Global().Get("Object").New()
		headers.Set("content-type", "text/event-stream")
		res.Call("writeHead", 200, headers)
		res.Call("write", "data: first\n\n")
		go func() {
			<-release
			res.Call("end", "data: second\n\n")
		}()
	})
	resp, err := newTransport(t).Do(context.Background(), &core.HTTPRequest{Method: "GET", URL: url + "/sse"})
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	buf := make([]byte, 64)
	n, err := resp.Body.Read(buf)
	if err != nil || string(buf[:n]) != "data: first\n\n" {
		t.Fatalf("first read: %q, %v (the body must stream, not wait for the end)", buf[:n], err)
	}
	close(release)
	rest, err := io.ReadAll(resp.Body)
	if err != nil || string(rest) != "data: second\n\n" {
		t.Fatalf("rest: %q, %v", rest, err)
	}
}

func TestGlue(t *testing.T) {
	ctx := context.Background()
	resolved := js.Global().Get("Promise").Call("resolve", 42)
	if v, err := Await(ctx, resolved); err != nil || v.Int() != 42 {
		t.Fatalf("Await(resolved) = %v, %v", v, err)
	}
	rejected := js.Global().Get("Promise").Call("reject", js.Global().Get("TypeError").New("boom"))
	if _, err := Await(ctx, rejected); err == nil || err.Error() != "boom" {
		t.Fatalf("Await(rejected) err = %v", err)
	}
	if v, err := Await(ctx, js.ValueOf("plain")); err != nil || v.String() != "plain" {
		t.Fatalf("Await(plain) = %v, %v", v, err)
	}
	m := js.Global().Get("Map").New()
	if _, err := CallMethod(m, "set", "k", "v"); err != nil {
		t.Fatal(err)
	}
	if v, err := CallMethod(m, "get", "k"); err != nil || v.String() != "v" {
		t.Fatalf("CallMethod get = %v, %v", v, err)
	}
	if _, err := CallMethod(js.Global().Get("JSON"), "parse", "{"); err == nil || !strings.Contains(err.Error(), "JSON") {
		t.Fatalf("CallMethod throw: err = %v", err)
	}
	thrower := js.Global().Get("Function").New("throw new RangeError('out of range')")
	if _, err := Invoke(thrower); err == nil || err.Error() != "out of range" {
		t.Fatalf("Invoke throw: err = %v", err)
	}
	if err := Error(js.ValueOf("text")); err.Error() != "text" {
		t.Fatalf("Error(text) = %v", err)
	}
	res := js.Global().Get("Response").New("hello")
	r := StreamReader(ctx, res.Get("body"))
	b, err := io.ReadAll(r)
	if err != nil || string(b) != "hello" {
		t.Fatalf("StreamReader = %q, %v", b, err)
	}
	r.Close()
}
