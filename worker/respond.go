package worker

import (
	"encoding/json"
	"net/http"
	"strconv"
)

// apiError is the body of every error response:
//
//	{"error": {"code": "state_expired", "message": "state token has expired; start a new run"}}
//
// An LLM failure adds the provider's HTTP status as upstreamStatus and, when
// the run got that far, the partial result (so a caller learns that an
// approved tool already ran).
type apiError struct {
	Code           string `json:"code"`
	Message        string `json:"message"`
	UpstreamStatus int    `json:"upstreamStatus,omitempty"`
}

type errorBody struct {
	Error  apiError `json:"error"`
	Result any      `json:"result,omitempty"`
}

// writeJSON writes v as the response body with the given status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status = http.StatusInternalServerError
		b = []byte(`{"error":{"code":"internal","message":"could not encode the response"}}`)
	}
	b = append(b, '\n')
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Content-Length", strconv.Itoa(len(b)))
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(b)
}

// writeError writes an apiError.
func writeError(w http.ResponseWriter, status int, code, message string) {
	writeJSON(w, status, errorBody{Error: apiError{Code: code, Message: message}})
}
