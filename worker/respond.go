package worker

import (
	"bytes"
	"fmt"
	"strconv"

	"github.com/toolnexus/wasm/internal/httpx"
	"github.com/toolnexus/wasm/internal/jsonx"
)

// APIError is the body of every error response:
//
//	{"error": {"code": "state_expired", "message": "state token has expired; start a new run"}}
//
// An LLM failure adds the provider's HTTP status as upstreamStatus and, when
// the run got that far, the partial result (so a caller learns that an
// approved tool already ran).
type APIError struct {
	Code           string `json:"code"`
	Message        string `json:"message"`
	UpstreamStatus int    `json:"upstreamStatus,omitempty"`
	// Problems lists every missing or invalid setting of a "config" error.
	Problems []configProblem `json:"problems,omitempty"`
}

type ErrorBody struct {
	Error  APIError `json:"error"`
	Result any      `json:"result,omitempty"`
}

// writeJSON writes v as the response body with the given status.
func writeJSON(w httpx.ResponseWriter, status int, v any) {
	b, err := marshalJSON(v)
	if err != nil {
		status = httpx.StatusInternalServerError
		b = []byte(`{"error":{"code":"internal","message":"could not encode the response"}}`)
	}
	writeRaw(w, status, append(b, '\n'))
}

// writeRaw writes b, JSON text ending in a newline, as writeJSON does.
func writeRaw(w httpx.ResponseWriter, status int, b []byte) {
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Content-Length", strconv.Itoa(len(b)))
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(b)
}

// marshalJSON encodes v with jsonx, compacted: a json.RawMessage (a
// caller's history, a JSON-RPC id) loses its insignificant space, as
// encoding/json's Marshal did, so that an event's data stays on one line
// and stored sizes stay as they were.
func marshalJSON(v any) ([]byte, error) {
	if out, ok := v.(RunResponse); ok {
		b, err := appendRunResponse(nil, out) // compacted as it is written
		if err != nil {
			return nil, fmt.Errorf("encode %T: %w", v, err)
		}
		return b, nil
	}
	b, err := jsonx.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encode %T: %w", v, err)
	}
	return compactJSON(b), nil
}

// compactJSON removes the space outside strings from valid JSON.
func compactJSON(b []byte) []byte {
	if bytes.IndexAny(b, " \t\n\r") < 0 {
		return b
	}
	out := make([]byte, 0, len(b))
	inString := false
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case inString:
			out = append(out, c)
			if c == '\\' && i+1 < len(b) {
				i++
				out = append(out, b[i])
			} else if c == '"' {
				inString = false
			}
			continue
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			continue
		case c == '"':
			inString = true
		}
		out = append(out, c)
	}
	return out
}

// writeError writes an APIError.
func writeError(w httpx.ResponseWriter, status int, code, message string) {
	writeJSON(w, status, ErrorBody{Error: APIError{Code: code, Message: message}})
}

// WriteJSON is writeJSON for the products (mcpserver), so that every answer
// has the same shape.
func WriteJSON(w httpx.ResponseWriter, status int, v any) { writeJSON(w, status, v) }

// MarshalJSON is marshalJSON for the products.
func MarshalJSON(v any) ([]byte, error) { return marshalJSON(v) }

// WriteError is writeError for the products and the platform glue
// (worker/cfworker), which answers a request it cannot hand to the
// Handler in the same shape.
func WriteError(w httpx.ResponseWriter, status int, code, message string) {
	writeError(w, status, code, message)
}
