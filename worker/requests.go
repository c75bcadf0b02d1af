package worker

import (
	"bytes"
	"encoding/json" // for the RawMessage type only: nothing of the package runs
	"errors"
	"fmt"
	"io"

	"github.com/tidwall/gjson"
	"github.com/toolnexus/wasm/internal/httpx"

	"github.com/toolnexus/wasm/internal/jsonx"
)

// The request bodies and stored records are read with internal/jsonx's
// typed readers over gjson (encoding/json is not linked into the wasm
// builds). Keys are case-sensitive; errors name the field and what it must
// be ("answer.ok" must be true or false).

// jsonRaw is a JSON value's text as it arrived.
type jsonRaw = json.RawMessage

// errEmptyBody is ReadJSONBody's error for a body of nothing but space.
var errEmptyBody = errors.New("request body is empty; send a JSON object")

// ReadJSONBody reads the whole body (the handler's MaxBytesReader bounds
// it: a *httpx.MaxBytesError comes back wrapped) and checks that it is one
// JSON value nested no deeper than jsonx.MaxDepth, before anything parses
// it recursively. BeginJSON reads it so; a route that checks other things
// first (worker/runs' POST /approve) calls it itself.
func ReadJSONBody(r *httpx.Request) (gjson.Result, error) {
	b, err := io.ReadAll(r.Body)
	if err != nil {
		return gjson.Result{}, err
	}
	if len(bytes.TrimSpace(b)) == 0 {
		return gjson.Result{}, errEmptyBody
	}
	if err := jsonx.Check(b); err != nil {
		return gjson.Result{}, err
	}
	return gjson.ParseBytes(b), nil
}

// DecodeRunRequest reads the body of POST /v1/run (and of POST /v1/runs);
// unknown fields are an error.
func DecodeRunRequest(v gjson.Result) (RunRequest, error) {
	var req RunRequest
	err := ReadBodyObject(v, true,
		jsonx.Field{Name: "prompt", Read: jsonx.String(&req.Prompt)},
		jsonx.Field{Name: "messages", Read: jsonx.RawList(&req.Messages)},
		jsonx.Field{Name: "stream", Read: jsonx.Bool(&req.Stream)},
		jsonx.Field{Name: "conversation", Read: jsonx.String(&req.Conversation)},
		jsonx.Field{Name: "workspace", Read: jsonx.String(&req.Workspace)},
		jsonx.Field{Name: "agent", Read: jsonx.String(&req.Agent)},
	)
	return req, err
}

// decodeResumeRequest reads the body of POST /v1/resume; unknown fields,
// also inside "answer", are an error.
func decodeResumeRequest(v gjson.Result) (resumeRequest, error) {
	var req resumeRequest
	var a resumeAnswer
	answered := false
	err := ReadBodyObject(v, true,
		jsonx.Field{Name: "state", Read: jsonx.String(&req.State)},
		jsonx.Field{Name: "stream", Read: jsonx.Bool(&req.Stream)},
		jsonx.Field{Name: "conversation", Read: jsonx.String(&req.Conversation)},
		jsonx.Field{Name: "answer", Read: func(v gjson.Result, path string) error {
			answered = true
			return jsonx.ReadObject(v, path, true,
				jsonx.Field{Name: "id", Read: jsonx.String(&a.ID)},
				jsonx.Field{Name: "ok", Read: jsonx.BoolPtr(&a.Ok)},
				jsonx.Field{Name: "data", Read: jsonx.Map(&a.Data)},
				jsonx.Field{Name: "reason", Read: jsonx.String(&a.Reason)},
			)
		}},
	)
	if answered {
		req.Answer = &a
	}
	return req, err
}

// ReadBodyObject reads a request body's top-level object.
func ReadBodyObject(v gjson.Result, strict bool, fields ...jsonx.Field) error {
	if !v.IsObject() {
		return errors.New("request body must be a JSON object")
	}
	return jsonx.ReadObject(v, "", strict, fields...)
}

// decodeState reads a state token's payload: one JSON value; unknown
// fields are ignored; "pending" is read by core.Request's own
// UnmarshalJSON. A transcript that was accepted at jsonx.MaxDepth still
// fits inside the payload's own nesting (jsonx.WrapSlack).
func decodeState(payload []byte) (State, error) {
	var st State
	if err := jsonx.CheckDepth(payload, jsonx.MaxDepth+jsonx.WrapSlack); err != nil {
		return st, fmt.Errorf("state payload: %w", err)
	}
	if !gjson.ValidBytes(payload) {
		return st, fmt.Errorf("state payload: %w", jsonx.ErrInvalid)
	}
	err := jsonx.ReadObject(gjson.ParseBytes(payload), "", false,
		jsonx.Field{Name: "id", Read: jsonx.String(&st.ID)},
		jsonx.Field{Name: "iat", Read: jsonx.Int64(&st.IssuedAt)},
		jsonx.Field{Name: "exp", Read: jsonx.Int64(&st.ExpiresAt)},
		jsonx.Field{Name: "style", Read: jsonx.String(&st.Style)},
		jsonx.Field{Name: "ws", Read: jsonx.String(&st.Workspace)},
		jsonx.Field{Name: "agent", Read: jsonx.String(&st.Agent)},
		jsonx.Field{Name: "pending", Read: func(v gjson.Result, path string) error {
			if err := st.Pending.UnmarshalJSON([]byte(v.Raw)); err != nil {
				return fmt.Errorf("%s: %w", path, err)
			}
			return nil
		}},
		jsonx.Field{Name: "messages", Read: jsonx.RawList(&st.Messages)},
	)
	if err != nil {
		return State{}, fmt.Errorf("state payload: %w", err)
	}
	return st, nil
}

// decodeStoredConversation reads a CONVERSATIONS_KV value.
func decodeStoredConversation(b []byte) (storedConversation, error) {
	var sc storedConversation
	if err := jsonx.CheckDepth(b, jsonx.MaxDepth+jsonx.WrapSlack); err != nil {
		return sc, err
	}
	if !gjson.ValidBytes(b) {
		return sc, jsonx.ErrInvalid
	}
	err := jsonx.ReadObject(gjson.ParseBytes(b), "", false,
		jsonx.Field{Name: "v", Read: jsonx.Int(&sc.V)},
		jsonx.Field{Name: "messages", Read: jsonx.RawList(&sc.Messages)},
	)
	return sc, err
}
