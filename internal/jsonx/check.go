package jsonx

import "errors"

// CheckText is Check with an error for people: prefix + what + " is not
// valid JSON", or + " is refused: " and the depth error. The errors are
// plain text on purpose: callers pass them through API-key redaction,
// which rebuilds an error from its text.
func CheckText(b []byte, prefix, what string) error {
	switch err := Check(b); err {
	case nil:
		return nil
	case ErrInvalid:
		return errors.New(prefix + what + " is not valid JSON")
	default:
		return errors.New(prefix + what + " is refused: " + err.Error())
	}
}
