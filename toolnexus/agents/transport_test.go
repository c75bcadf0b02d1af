package agents

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/toolnexus/wasm/core"
)

// roundTripFunc is an http.RoundTripper from a function.
type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func TestRoundTripTransportCarriesTheExchange(t *testing.T) {
	refused := errors.New("refused")
	cases := []struct {
		name       string
		reply      func(*http.Request) (*http.Response, error)
		wantStatus int
		wantBody   string
		wantHeader string // the content-type the kernel reads
		wantErr    error
	}{
		{
			name: "request goes out whole, response comes back with lower-case headers",
			reply: func(r *http.Request) (*http.Response, error) {
				b, _ := io.ReadAll(r.Body)
				echo := r.Method + " " + r.URL.String() + " " + r.Header.Get("Authorization") + " " + string(b)
				return &http.Response{StatusCode: 201, Header: http.Header{"Content-Type": {"application/json"}}, Body: io.NopCloser(strings.NewReader(echo))}, nil
			},
			wantStatus: 201, wantBody: `POST http://mock.local/v1/chat Bearer k {"a":1}`, wantHeader: "application/json",
		},
		{
			name: "a response without a body reads as empty",
			reply: func(*http.Request) (*http.Response, error) {
				return &http.Response{StatusCode: 204}, nil
			},
			wantStatus: 204,
		},
		{
			name:    "a RoundTripper error is wrapped, not lost",
			reply:   func(*http.Request) (*http.Response, error) { return nil, refused },
			wantErr: refused,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tr := roundTripTransport{rt: roundTripFunc(tc.reply)}
			resp, err := tr.Do(context.Background(), &core.HTTPRequest{
				Method: "POST", URL: "http://mock.local/v1/chat",
				Header: map[string]string{"Authorization": "Bearer k"}, Body: []byte(`{"a":1}`),
			})
			if tc.wantErr != nil {
				if !errors.Is(err, tc.wantErr) || !strings.HasPrefix(err.Error(), "agents: transport: ") {
					t.Fatalf("err = %v, want %v wrapped", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, _ := io.ReadAll(resp.Body)
			if resp.Status != tc.wantStatus || string(body) != tc.wantBody || resp.Header["content-type"] != tc.wantHeader {
				t.Errorf("got %d %q %q", resp.Status, body, resp.Header["content-type"])
			}
		})
	}
}

// TestRoundTripTransportPassesTheContext: cancelling the run reaches the
// RoundTripper through the request's context.
func TestRoundTripTransportPassesTheContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	tr := roundTripTransport{rt: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		cancel()
		<-r.Context().Done()
		return nil, r.Context().Err()
	})}
	if _, err := tr.Do(ctx, &core.HTTPRequest{Method: "POST", URL: "http://mock.local/"}); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}
