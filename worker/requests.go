package worker

import (
	"encoding/json" // for the RawMessage type only: nothing of the package runs
	"fmt"
	"reflect"

	"github.com/tidwall/gjson"
	"github.com/toolnexus/wasm/internal/jsonx"
)

// jsonRaw is a JSON value's text as it arrived.
type jsonRaw = json.RawMessage

// The Go type strings encoding/json's errors name. TypeOf of a nil pointer,
// not reflect.TypeFor: each TypeFor instantiation is code of its own.
var (
	runRequestType    = reflect.TypeOf((*runRequest)(nil)).Elem()
	resumeRequestType = reflect.TypeOf((*resumeRequest)(nil)).Elem()
	resumeAnswerType  = reflect.TypeOf((*resumeAnswer)(nil)).Elem()
	chatRequestType   = reflect.TypeOf((*chatRequest)(nil)).Elem()
	stateType         = reflect.TypeOf((*State)(nil)).Elem()
	storedConvType    = reflect.TypeOf((*storedConversation)(nil)).Elem()
)

// decodeRunRequest reads the body of POST /v1/run; unknown fields are an
// error.
func decodeRunRequest(v gjson.Result) (runRequest, error) {
	var req runRequest
	name := runRequestType.Name()
	err := decodeJSONStruct(v, jsonField{}, runRequestType.String(), name, true, []jsonFieldSetter{
		{"prompt", setJSONString(&req.Prompt)},
		{"messages", setJSONRawList(&req.Messages)},
		{"stream", setJSONBool(&req.Stream)},
		{"conversation", setJSONString(&req.Conversation)},
		{"workspace", setJSONString(&req.Workspace)},
	})
	return req, err
}

// decodeResumeRequest reads the body of POST /v1/resume; unknown fields,
// also inside "answer", are an error.
func decodeResumeRequest(v gjson.Result) (resumeRequest, error) {
	var req resumeRequest
	name := resumeRequestType.Name()
	err := decodeJSONStruct(v, jsonField{}, resumeRequestType.String(), name, true, []jsonFieldSetter{
		{"state", setJSONString(&req.State)},
		{"stream", setJSONBool(&req.Stream)},
		{"conversation", setJSONString(&req.Conversation)},
		{"answer", func(v gjson.Result, at jsonField) error {
			if v.Type == gjson.Null {
				req.Answer = nil
				return nil
			}
			if req.Answer == nil {
				req.Answer = &resumeAnswer{}
			}
			a := req.Answer
			return decodeJSONStruct(v, at, resumeAnswerType.String(), resumeAnswerType.Name(), true, []jsonFieldSetter{
				{"id", setJSONString(&a.ID)},
				{"ok", setJSONBoolPtr(&a.Ok)},
				{"data", setJSONMap(&a.Data)},
				{"reason", setJSONString(&a.Reason)},
			})
		}},
	})
	return req, err
}

// decodeChatRequest reads the body of POST /v1/chat/completions; other
// fields are ignored.
func decodeChatRequest(v gjson.Result) (chatRequest, error) {
	var req chatRequest
	name := chatRequestType.Name()
	err := decodeJSONStruct(v, jsonField{}, chatRequestType.String(), name, false, []jsonFieldSetter{
		{"model", setJSONString(&req.Model)},
		{"messages", setJSONRawList(&req.Messages)},
		{"tools", setJSONRawList(&req.Tools)},
		{"stream", setJSONBool(&req.Stream)},
		{"n", setJSONIntPtr(&req.N)},
	})
	return req, err
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
// Elements of a repeated "tool_calls" merge into those decoded before, as
// encoding/json's did.
func decodeChatMessage(raw []byte) (chatMessageShape, bool) {
	var m chatMessageShape
	v := gjson.ParseBytes(raw)
	if !v.IsObject() {
		return m, false
	}
	// The type error texts are not shown; the names only need to be set.
	err := decodeJSONStruct(v, jsonField{}, "message", "", false, []jsonFieldSetter{
		{"role", setJSONString(&m.Role)},
		{"tool_calls", func(v gjson.Result, at jsonField) error {
			switch {
			case v.Type == gjson.Null:
				m.ToolCalls = nil
				return nil
			case !v.IsArray():
				return at.typeError(jsonKind(v), "[]struct")
			}
			n := 0
			var err error
			v.ForEach(func(_, e gjson.Result) bool {
				if n < cap(m.ToolCalls) {
					m.ToolCalls = m.ToolCalls[:n+1]
				} else {
					m.ToolCalls = append(m.ToolCalls, chatToolCallShape{})
				}
				tc := &m.ToolCalls[n]
				n++
				err = decodeJSONStruct(e, at, "tool call", "", false, []jsonFieldSetter{
					{"function", func(f gjson.Result, at jsonField) error {
						return decodeJSONStruct(f, at, "function", "", false, []jsonFieldSetter{
							{"name", setJSONString(&tc.Name)},
							{"arguments", setJSONString(&tc.Arguments)},
						})
					}},
				})
				return err == nil
			})
			if n == 0 {
				m.ToolCalls = []chatToolCallShape{} // a fresh slice, as encoding/json makes
			} else {
				m.ToolCalls = m.ToolCalls[:n]
			}
			return err
		}},
	})
	return m, err == nil
}

// validChatTool reports whether raw is {"type"?: "function", "function":
// {"name": non-empty, …}}.
func validChatTool(raw []byte) bool {
	var typ, name string
	var fn bool
	err := decodeJSONStruct(gjson.ParseBytes(raw), jsonField{}, "tool", "", false, []jsonFieldSetter{
		{"type", setJSONString(&typ)},
		{"function", func(v gjson.Result, at jsonField) error {
			if v.Type == gjson.Null || !fn {
				name = "" // null drops the function; a new one starts empty
			}
			fn = v.Type != gjson.Null
			if !fn {
				return nil
			}
			return decodeJSONStruct(v, at, "function", "", false, []jsonFieldSetter{{"name", setJSONString(&name)}})
		}},
	})
	return err == nil && fn && name != "" && (typ == "" || typ == "function")
}

// decodeState reads a state token's payload: one JSON value and nothing
// after it; unknown fields are ignored; "pending" is read by
// core.Request's own UnmarshalJSON.
func decodeState(payload []byte) (State, error) {
	var st State
	if err := checkJSONWithin(payload, maxJSONDepth+jsonx.WrapSlack); err != nil {
		return st, fmt.Errorf("state payload: %w", err)
	}
	name := stateType.Name()
	err := decodeJSONStruct(gjson.ParseBytes(payload), jsonField{}, stateType.String(), name, false, []jsonFieldSetter{
		{"id", setJSONString(&st.ID)},
		{"iat", setJSONInt64(&st.IssuedAt, "int64", 64)},
		{"exp", setJSONInt64(&st.ExpiresAt, "int64", 64)},
		{"style", setJSONString(&st.Style)},
		{"ws", setJSONString(&st.Workspace)},
		{"pending", func(v gjson.Result, _ jsonField) error {
			if err := st.Pending.UnmarshalJSON([]byte(v.Raw)); err != nil {
				return fmt.Errorf("pending: %w", err)
			}
			return nil
		}},
		{"messages", setJSONRawList(&st.Messages)},
	})
	if err != nil {
		return State{}, fmt.Errorf("state payload: %w", err)
	}
	return st, nil
}

// decodeStoredConversation reads a CONVERSATIONS_KV value.
func decodeStoredConversation(b []byte) (storedConversation, error) {
	var sc storedConversation
	if err := checkJSONWithin(b, maxJSONDepth+jsonx.WrapSlack); err != nil {
		return sc, err
	}
	err := decodeJSONStruct(gjson.ParseBytes(b), jsonField{}, storedConvType.String(), storedConvType.Name(), false, []jsonFieldSetter{
		{"v", setJSONInt(&sc.V)},
		{"messages", setJSONRawList(&sc.Messages)},
	})
	return sc, err
}
