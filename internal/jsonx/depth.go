package jsonx

import (
	"errors"
	"strconv"
	"unsafe"

	"github.com/tidwall/gjson"
)

// MaxDepth is how deeply JSON that enters the runtime may nest: objects and
// arrays, counted together. Every entry checks it (CheckDepth) before any
// recursive parse, because gjson's validation and Value, encoding/json and
// our own decoders recurse once or twice per level, and under js/wasm each
// Go call is a call on the JS engine's stack: Node's default stack (984 KiB)
// overflowed at about 9,000 levels, which ended the whole host process, and
// on a Worker it left the Go instance deadlocked.
//
// 1000 is generous for real payloads (tool schemas, model replies, MCP
// messages and transcripts nest a few dozen levels at most) and keeps the
// deepest recursion at about a ninth of the depth that overflowed, leaving
// room for the frames below a parse and for code that recurses more than
// once per level.
const MaxDepth = 1000

// WrapSlack is what a check adds to MaxDepth for JSON that wraps values the
// runtime already accepted at MaxDepth (a transcript message around tool
// arguments, a state token around the transcript): what was accepted once
// must not be refused when it comes back wrapped.
const WrapSlack = 16

// ErrTooDeep is what errors.Is finds when JSON nests deeper than allowed.
var ErrTooDeep = errors.New("JSON nested too deeply")

// DepthError is CheckDepth's error: it matches ErrTooDeep.
type DepthError struct{ Max int }

func (e *DepthError) Error() string {
	return "JSON nested more than " + strconv.Itoa(e.Max) + " levels deep"
}

// Is makes errors.Is(err, ErrTooDeep) true.
func (e *DepthError) Is(target error) bool { return target == ErrTooDeep }

// CheckDepth fails when b nests objects and arrays more than max levels
// deep. It is one iterative pass that skips string contents (brackets and
// escaped quotes inside strings do not count) and stops at the first level
// past max; it does not validate anything else. Invalid JSON within the
// limit passes: the parser that comes next reports it.
func CheckDepth(b []byte, max int) error {
	depth := 0
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '"':
			i = stringEnd(b, i)
		case '{', '[':
			depth++
			if depth > max {
				return &DepthError{Max: max}
			}
		case '}', ']':
			if depth > 0 {
				depth--
			}
		}
	}
	return nil
}

// CheckDepthString is CheckDepth for a string. It reads the string's bytes
// in place (no copy): the check only reads them.
func CheckDepthString(s string, max int) error {
	return CheckDepth(unsafe.Slice(unsafe.StringData(s), len(s)), max)
}

// stringEnd returns the index of the quote that closes the string whose
// opening quote is at b[i], or len(b) when it is not closed.
func stringEnd(b []byte, i int) int {
	for i++; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i
		}
	}
	return len(b)
}

// Valid reports whether b is one JSON value nested at most MaxDepth deep.
// Use it instead of gjson.ValidBytes, whose check recurses per level.
func Valid(b []byte) bool { return CheckDepth(b, MaxDepth) == nil && gjson.ValidBytes(b) }

// ValidString is Valid for a string.
func ValidString(s string) bool { return CheckDepthString(s, MaxDepth) == nil && gjson.Valid(s) }

// Checked is JSON text that passed Check, or an element of a value that
// did: a message split from a checked array. Code that takes it may skip
// validating it again (core's history does: a 100 kB history was checked
// twice per run). It encodes as itself, checked again then.
type Checked []byte

// MarshalJSON returns c.
func (c Checked) MarshalJSON() ([]byte, error) { return c, nil }

// Check is Valid with the reason: a *DepthError, or ErrInvalid.
func Check(b []byte) error {
	if err := CheckDepth(b, MaxDepth); err != nil {
		return err
	}
	if !gjson.ValidBytes(b) {
		return ErrInvalid
	}
	return nil
}
