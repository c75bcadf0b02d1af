package approval

import (
	"encoding/json" // for the RawMessage type only: nothing of the package runs
	"errors"
	"strconv"
	"time"

	"github.com/tidwall/gjson"
	"github.com/toolnexus/wasm/internal/jsonx"
)

// The decisions an Entry records.
const (
	Allowed  = "allowed"  // a rule let the call run without asking
	Denied   = "denied"   // a rule stopped it
	Approved = "approved" // a person approved it (or a grant did: GrantedBy)
	Edited   = "edited"   // a person approved it with other arguments (Ran)
	Declined = "declined" // a person declined it
	Happened = "happened" // a person said a call whose outcome was lost happened
	Rerun    = "rerun"    // … that it should run again
	Failed   = "failed"   // … that it did not happen
	Revoked  = "revoked"  // a person revoked a grant (Request names it)
)

// Where a decision came from (Entry.From).
const (
	FromRule    = "rule"    // a rule of the list, or of an MCP server or agent
	FromGrant   = "grant"   // an earlier "allow for this conversation"
	FromTab     = "tab"     // the page's dialog
	FromLink    = "link"    // a durable run's approval link
	FromAPI     = "api"     // the Worker's /v1/resume (or a run's API)
	FromAISDK   = "ai-sdk"  // an AI SDK approval response
	FromA2A     = "a2a"     // an A2A client
	FromWaitFor = "waitFor" // a program's WaitFor
	FromResume  = "resume"  // a program's RunWithAnswer
)

// Entry is one decision about one tool call (or one grant). Seq, Prev and
// Hash are set by the record that chains it (Log, Chain); the rest by what
// decided.
type Entry struct {
	Seq int `json:"seq"`
	// At is when it was decided, RFC 3339 in UTC with milliseconds.
	At string `json:"at"`
	// Run is the run it was decided in; Conversation the conversation,
	// when the run belongs to one (grants live there).
	Run          string `json:"run,omitempty"`
	Conversation string `json:"conversation,omitempty"`
	// Call is the tool call's id, Tool its tool, Path the asking agent's
	// path in a team.
	Call string   `json:"call,omitempty"`
	Tool string   `json:"tool,omitempty"`
	Path []string `json:"path,omitempty"`
	// Request is the id of the request a person answered (or, for
	// Revoked, of the grant).
	Request string `json:"request,omitempty"`
	// Asked are the arguments the model asked for; Ran the ones that ran
	// (absent when the call did not run): after an edit they differ.
	Asked json.RawMessage `json:"asked,omitempty"`
	Ran   json.RawMessage `json:"ran,omitempty"`
	// Decision is one of Allowed … Revoked; Reason why (a decline's or a
	// deny's words, what a person said happened).
	Decision string `json:"decision"`
	Reason   string `json:"reason,omitempty"`
	// Rule names the rule that decided (Allowed, Denied) or that asked.
	Rule string `json:"rule,omitempty"`
	// Grant is the scope an approval granted for the conversation
	// (GrantArgs, GrantAny); GrantedBy, on a call a grant approved, the
	// grant's id (the Request of the approval that gave it).
	Grant     string `json:"grant,omitempty"`
	GrantedBy string `json:"grantedBy,omitempty"`
	// Approver is the person ("in page", an approver token's name); From
	// where the decision came from (FromRule … FromResume).
	Approver string `json:"approver,omitempty"`
	From     string `json:"from"`
	// Prev is the hash of the entry before ("" for the first), Hash this
	// entry's: SHA-256, in hex, of its JSON without "hash".
	Prev string `json:"prev"`
	Hash string `json:"hash"`
}

// Stamp is t as an Entry's At: 2026-05-01T10:00:00.000Z. (Written by hand:
// time.Format's layout machinery is not otherwise linked into the browser
// builds.)
func Stamp(t time.Time) string {
	t = t.UTC()
	y, mo, d := t.Date()
	h, mi, s := t.Clock()
	b := []byte("0000-00-00T00:00:00.000Z")
	for _, v := range [...]struct{ at, width, n int }{{0, 4, y}, {5, 2, int(mo)}, {8, 2, d}, {11, 2, h}, {14, 2, mi}, {17, 2, s}, {20, 3, t.Nanosecond() / 1e6}} {
		for j := v.at + v.width - 1; j >= v.at; j-- {
			b[j] = byte('0' + v.n%10)
			v.n /= 10
		}
	}
	return string(b)
}

// AppendJSON appends e as one JSON object, its keys always in the same
// order: the text a hash is taken over, so it is written by hand. The
// arguments are written canonically (keys sorted, numbers and strings as
// internal/jsonx writes them), so an entry whose JSON passed through
// another encoder (one that escapes "<", say) hashes the same. Its struct
// tags give the same JSON (no MarshalJSON: the wasm builds' encoder
// refuses a nested value with its own).
func (e Entry) AppendJSON(dst []byte) []byte {
	dst = append(e.appendBody(dst), `,"hash":`...)
	return append(jsonx.AppendString(dst, e.Hash), '}')
}

// appendBody is the entry without its hash and closing brace.
func (e Entry) appendBody(dst []byte) []byte {
	dst = append(dst, `{"seq":`...)
	dst = strconv.AppendInt(dst, int64(e.Seq), 10)
	dst = str(dst, "at", e.At, true)
	dst = str(dst, "run", e.Run, false)
	dst = str(dst, "conversation", e.Conversation, false)
	dst = str(dst, "call", e.Call, false)
	dst = str(dst, "tool", e.Tool, false)
	if len(e.Path) > 0 {
		dst = append(dst, `,"path":[`...)
		for i, p := range e.Path {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = jsonx.AppendString(dst, p)
		}
		dst = append(dst, ']')
	}
	dst = str(dst, "request", e.Request, false)
	dst = raw(dst, "asked", e.Asked)
	dst = raw(dst, "ran", e.Ran)
	dst = str(dst, "decision", e.Decision, true)
	dst = str(dst, "reason", e.Reason, false)
	dst = str(dst, "rule", e.Rule, false)
	dst = str(dst, "grant", e.Grant, false)
	dst = str(dst, "grantedBy", e.GrantedBy, false)
	dst = str(dst, "approver", e.Approver, false)
	dst = str(dst, "from", e.From, true)
	return str(dst, "prev", e.Prev, true)
}

func str(dst []byte, key, v string, always bool) []byte {
	if v == "" && !always {
		return dst
	}
	dst = append(dst, `,"`...)
	dst = append(dst, key...)
	dst = append(dst, `":`...)
	return jsonx.AppendString(dst, v)
}

func raw(dst []byte, key string, v json.RawMessage) []byte {
	if len(v) == 0 {
		return dst
	}
	dst = append(dst, `,"`...)
	dst = append(dst, key...)
	dst = append(dst, `":`...)
	return append(dst, Canonical(v)...)
}

// Canonical is JSON text v as the record writes it: decoded and encoded
// again, object keys sorted; text that is not JSON is kept as it is.
func Canonical(v json.RawMessage) json.RawMessage {
	d, err := jsonx.Decode(v)
	if err != nil {
		return v
	}
	b, err := jsonx.Marshal(d)
	if err != nil {
		return v
	}
	return b
}

// DecodeEntry reads one entry's JSON. The arguments are kept as they are
// written, so that the entry's hash can be checked.
func DecodeEntry(text []byte) (Entry, error) {
	if err := jsonx.Check(text); err != nil {
		return Entry{}, err
	}
	doc := gjson.ParseBytes(text)
	var e Entry
	keep := func(dst *json.RawMessage) jsonx.Reader {
		return func(v gjson.Result, _ string) error { *dst = json.RawMessage(v.Raw); return nil }
	}
	err := jsonx.ReadObject(doc, "", false,
		jsonx.Field{Name: "seq", Read: jsonx.Int(&e.Seq)},
		jsonx.Field{Name: "at", Read: jsonx.String(&e.At)},
		jsonx.Field{Name: "run", Read: jsonx.String(&e.Run)},
		jsonx.Field{Name: "conversation", Read: jsonx.String(&e.Conversation)},
		jsonx.Field{Name: "call", Read: jsonx.String(&e.Call)},
		jsonx.Field{Name: "tool", Read: jsonx.String(&e.Tool)},
		jsonx.Field{Name: "path", Read: stringList(&e.Path)},
		jsonx.Field{Name: "request", Read: jsonx.String(&e.Request)},
		jsonx.Field{Name: "asked", Read: keep(&e.Asked)},
		jsonx.Field{Name: "ran", Read: keep(&e.Ran)},
		jsonx.Field{Name: "decision", Read: jsonx.String(&e.Decision)},
		jsonx.Field{Name: "reason", Read: jsonx.String(&e.Reason)},
		jsonx.Field{Name: "rule", Read: jsonx.String(&e.Rule)},
		jsonx.Field{Name: "grant", Read: jsonx.String(&e.Grant)},
		jsonx.Field{Name: "grantedBy", Read: jsonx.String(&e.GrantedBy)},
		jsonx.Field{Name: "approver", Read: jsonx.String(&e.Approver)},
		jsonx.Field{Name: "from", Read: jsonx.String(&e.From)},
		jsonx.Field{Name: "prev", Read: jsonx.String(&e.Prev)},
		jsonx.Field{Name: "hash", Read: jsonx.String(&e.Hash)},
	)
	if err != nil {
		return Entry{}, err
	}
	if e.Decision == "" {
		return Entry{}, errors.New(`an entry has no "decision"`)
	}
	return e, nil
}

func stringList(dst *[]string) jsonx.Reader {
	return func(v gjson.Result, p string) error {
		if !v.IsArray() {
			return &jsonx.FieldError{Path: p, Problem: "must be an array of strings"}
		}
		var err error
		out := []string{}
		v.ForEach(func(_, s gjson.Result) bool {
			if s.Type != gjson.String {
				err = &jsonx.FieldError{Path: p, Problem: "must be an array of strings"}
				return false
			}
			out = append(out, s.Str)
			return true
		})
		*dst = out
		return err
	}
}
