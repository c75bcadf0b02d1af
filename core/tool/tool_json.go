package tool

import (
	"fmt"

	"github.com/tidwall/gjson"
	"github.com/toolnexus/wasm/internal/jsonx"
)

// Request and Answer decode themselves with gjson: they arrive from hosts
// (JS, HTTP bodies) and the wasm builds do not link encoding/json.
// encoding/json uses these methods too, so both paths behave alike.

// UnmarshalJSON reads a Request. Unknown keys are ignored; a key of the
// wrong type is an error.
func (r *Request) UnmarshalJSON(data []byte) error {
	doc, err := jsonObject(data, "request")
	if err != nil {
		return err
	}
	var out Request
	for _, f := range []struct {
		key string
		dst *string
	}{{"id", &out.ID}, {"kind", &out.Kind}, {"prompt", &out.Prompt}, {"url", &out.URL}, {"expiresAt", &out.ExpiresAt}} {
		if *f.dst, err = optString(doc, f.key, "request"); err != nil {
			return err
		}
	}
	if out.Data, err = optObject(doc, "data", "request"); err != nil {
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
	if out.ID, err = optString(doc, "id", "answer"); err != nil {
		return err
	}
	if out.Reason, err = optString(doc, "reason", "answer"); err != nil {
		return err
	}
	if ok := doc.Get("ok"); ok.Exists() && ok.Type != gjson.Null {
		if ok.Type != gjson.True && ok.Type != gjson.False {
			return fmt.Errorf("answer: ok must be a boolean")
		}
		out.Ok = ok.Bool()
	}
	if out.Data, err = optObject(doc, "data", "answer"); err != nil {
		return err
	}
	*a = out
	return nil
}

func jsonObject(data []byte, what string) (gjson.Result, error) {
	if err := jsonx.CheckDepth(data, jsonx.MaxDepth); err != nil {
		return gjson.Result{}, err
	}
	if !gjson.ValidBytes(data) {
		return gjson.Result{}, fmt.Errorf("%s: invalid JSON", what)
	}
	doc := gjson.ParseBytes(data)
	if !doc.IsObject() {
		return gjson.Result{}, fmt.Errorf("%s: not a JSON object", what)
	}
	return doc, nil
}

// optString and optObject read doc's key, a plain name (no path syntax).
func optString(doc gjson.Result, key, what string) (string, error) {
	switch v := doc.Get(key); v.Type {
	case gjson.Null:
		return "", nil
	case gjson.String:
		return v.String(), nil
	}
	return "", fmt.Errorf("%s: %s must be a string", what, key)
}

func optObject(doc gjson.Result, key, what string) (map[string]any, error) {
	v := doc.Get(key)
	if v.Type == gjson.Null {
		return nil, nil
	}
	if !v.IsObject() {
		return nil, fmt.Errorf("%s: %s must be an object", what, key)
	}
	m, _ := v.Value().(map[string]any)
	return m, nil
}
