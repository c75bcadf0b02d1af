package jsonx

import (
	"errors"

	"github.com/tidwall/gjson"
)

// Errors of Decode, DecodeObject and StringMap.
var (
	ErrInvalid   = errors.New("invalid JSON")
	ErrNotObject = errors.New("not a JSON object")
)

// Decode parses JSON text into plain Go values (map[string]any, []any,
// float64, string, bool, nil): the shapes encoding/json gives an `any`.
// Text nested deeper than MaxDepth is refused (a *DepthError) before
// anything recursive reads it.
func Decode(data []byte) (any, error) {
	if err := CheckDepth(data, MaxDepth); err != nil {
		return nil, err
	}
	if !gjson.ValidBytes(data) {
		return nil, ErrInvalid
	}
	return gjson.ParseBytes(data).Value(), nil
}

// DecodeObject is Decode for text that must hold a JSON object.
func DecodeObject(data []byte) (map[string]any, error) {
	v, err := Decode(data)
	if err != nil {
		return nil, err
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, ErrNotObject
	}
	return m, nil
}

// StringMap reads a JSON object whose values are all strings.
func StringMap(data []byte) (map[string]string, error) {
	m, err := DecodeObject(data)
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		s, ok := v.(string)
		if !ok {
			return nil, errors.New("the value of " + k + " is not a string")
		}
		out[k] = s
	}
	return out, nil
}
