package worker

import (
	"bytes"
	"encoding/json" // for the RawMessage type only: nothing of the package runs
	"errors"
	"fmt"
	"io"
	"net/http"

	"github.com/tidwall/gjson"

	"github.com/toolnexus/wasm/internal/jsonx"
)

// The request bodies and stored records are read with internal/jsonx's
// typed readers over gjson (encoding/json is not linked into the wasm
// builds). Keys are case-sensitive; errors name the field and what it must
// be ("answer.ok" must be true or false).

// jsonRaw is a JSON value's text as it arrived.
type jsonRaw = json.RawMessage

// errEmptyBody is readJSONBody's error for a body of nothing but space.
var errEmptyBody = errors.New("request body is empty; send a JSON object")

// readJSONBody reads the whole body (the handler's MaxBytesReader bounds
// it: a *http.MaxBytesError comes back wrapped) and checks that it is one
// JSON value nested no deeper than jsonx.MaxDepth, before anything parses
// it recursively.
func readJSONBody(r *http.Request) (gjson.Result, error) {
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

// decodeRunRequest reads the body of POST /v1/run; unknown fields are an
// error.
func decodeRunRequest(v gjson.Result) (runRequest, error) {
	var req runRequest
	err := readBodyObject(v, true,
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
	err := readBodyObject(v, true,
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

// decodeChatRequest reads the body of POST /v1/chat/completions; other
// fields (temperature, …) are ignored.
func decodeChatRequest(v gjson.Result) (chatRequest, error) {
	var req chatRequest
	err := readBodyObject(v, false,
		jsonx.Field{Name: "model", Read: jsonx.String(&req.Model)},
		jsonx.Field{Name: "messages", Read: jsonx.RawList(&req.Messages)},
		jsonx.Field{Name: "tools", Read: jsonx.RawList(&req.Tools)},
		jsonx.Field{Name: "stream", Read: jsonx.Bool(&req.Stream)},
		jsonx.Field{Name: "n", Read: jsonx.IntPtr(&req.N)},
		jsonx.Field{Name: "stream_options", Read: func(v gjson.Result, _ string) error {
			req.IncludeUsage = v.Get("include_usage").Type == gjson.True
			return nil
		}},
	)
	return req, err
}

// readBodyObject reads a request body's top-level object.
func readBodyObject(v gjson.Result, strict bool, fields ...jsonx.Field) error {
	if !v.IsObject() {
		return errors.New("request body must be a JSON object")
	}
	return jsonx.ReadObject(v, "", strict, fields...)
}

// chatMessageShape is what validateChat reads of one chat message.
type chatMessageShape struct {
	Role      string
	ToolCalls []chatToolCallShape
}

type chatToolCallShape struct {
	Name, Arguments string
}

// decodeChatMessage reads the role and tool calls of one message; ok is
// false when it is not an object or one of them has the wrong type.
func decodeChatMessage(raw []byte) (chatMessageShape, bool) {
	var m chatMessageShape
	v := gjson.ParseBytes(raw)
	if !v.IsObject() {
		return m, false
	}
	err := jsonx.ReadObject(v, "", false,
		jsonx.Field{Name: "role", Read: jsonx.String(&m.Role)},
		jsonx.Field{Name: "tool_calls", Read: func(v gjson.Result, path string) error {
			if !v.IsArray() {
				return &jsonx.FieldError{Path: path, Problem: "must be an array"}
			}
			m.ToolCalls = []chatToolCallShape{}
			var err error
			v.ForEach(func(_, e gjson.Result) bool {
				var tc chatToolCallShape
				err = jsonx.ReadObject(e, path, false, jsonx.Field{Name: "function", Read: jsonx.Object(false,
					jsonx.Field{Name: "name", Read: jsonx.String(&tc.Name)},
					jsonx.Field{Name: "arguments", Read: jsonx.String(&tc.Arguments)},
				)})
				m.ToolCalls = append(m.ToolCalls, tc)
				return err == nil
			})
			return err
		}},
	)
	return m, err == nil
}

// validChatTool reports whether raw is {"type"?: "function", "function":
// {"name": non-empty, …}}.
func validChatTool(raw []byte) bool {
	var typ, name string
	err := jsonx.ReadObject(gjson.ParseBytes(raw), "", false,
		jsonx.Field{Name: "type", Read: jsonx.String(&typ)},
		jsonx.Field{Name: "function", Read: jsonx.Object(false, jsonx.Field{Name: "name", Read: jsonx.String(&name)})},
	)
	return err == nil && gjson.GetBytes(raw, "function").IsObject() && name != "" && (typ == "" || typ == "function")
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
