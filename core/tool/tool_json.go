package tool

import (
	"errors"

	"github.com/tidwall/gjson"
	"github.com/toolnexus/wasm/internal/jsonx"
)

// Request and Answer decode themselves with internal/jsonx's typed readers
// over gjson: they arrive from hosts (JS, HTTP bodies) and the wasm builds
// do not link encoding/json. encoding/json uses these methods too, so both
// paths behave alike. Unknown keys are ignored, null leaves a field empty,
// and a key of the wrong type is an error that names it
// ("answer.ok" must be a boolean).

// UnmarshalJSON reads a Request.
func (r *Request) UnmarshalJSON(data []byte) error {
	doc, err := jsonObject(data, "request")
	if err != nil {
		return err
	}
	var out Request
	err = jsonx.ReadObject(doc, "request", false,
		jsonx.Field{Name: "id", Read: jsonx.String(&out.ID)},
		jsonx.Field{Name: "kind", Read: jsonx.String(&out.Kind)},
		jsonx.Field{Name: "prompt", Read: jsonx.String(&out.Prompt)},
		jsonx.Field{Name: "url", Read: jsonx.String(&out.URL)},
		jsonx.Field{Name: "expiresAt", Read: jsonx.String(&out.ExpiresAt)},
		jsonx.Field{Name: "data", Read: jsonx.Map(&out.Data)})
	if err != nil {
		return err
	}
	*r = out
	return nil
}

// UnmarshalJSON reads an Answer.
func (a *Answer) UnmarshalJSON(data []byte) error {
	doc, err := jsonObject(data, "answer")
	if err != nil {
		return err
	}
	var out Answer
	err = jsonx.ReadObject(doc, "answer", false,
		jsonx.Field{Name: "id", Read: jsonx.String(&out.ID)},
		jsonx.Field{Name: "ok", Read: jsonx.Bool(&out.Ok)},
		jsonx.Field{Name: "reason", Read: jsonx.String(&out.Reason)},
		jsonx.Field{Name: "data", Read: jsonx.Map(&out.Data)})
	if err != nil {
		return err
	}
	*a = out
	return nil
}

// jsonObject checks data once where it enters (depth, then syntax) and
// parses it; what names it in the errors.
func jsonObject(data []byte, what string) (gjson.Result, error) {
	switch err := jsonx.Check(data); {
	case errors.Is(err, jsonx.ErrInvalid):
		return gjson.Result{}, errors.New(what + ": invalid JSON")
	case err != nil:
		return gjson.Result{}, err
	}
	doc := gjson.ParseBytes(data)
	if !doc.IsObject() {
		return gjson.Result{}, errors.New(what + ": not a JSON object")
	}
	return doc, nil
}
