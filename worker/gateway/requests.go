package gateway

import (
	"github.com/tidwall/gjson"

	"github.com/toolnexus/wasm/internal/jsonx"
	"github.com/toolnexus/wasm/worker"
)

// decodeChatRequest reads the body of POST /v1/chat/completions; other
// fields (temperature, …) are ignored.
func decodeChatRequest(v gjson.Result) (chatRequest, error) {
	var req chatRequest
	err := worker.ReadBodyObject(v, false,
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
