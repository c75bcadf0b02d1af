package wire

import (
	"strconv"
	"strings"
)

// ProviderError is a non-2xx reply from the model provider. Its text is the
// Go port's: "LLM <status>" and, when the body kept anything, ": " and the
// body's first 200 bytes.
type ProviderError struct {
	Status int
	// Body is the provider's reply (its first 4 KiB as read) without the
	// API key and "" for 401 and 403; a CreateClient client also applies
	// RedactProviderBody's account-id redaction (a raw client does not).
	Body string
	// RetryAfter is the reply's Retry-After header, as sent ("" when none).
	RetryAfter string
}

// providerBodyInMessage is how much of Body the error text shows.
const providerBodyInMessage = 200

func (e *ProviderError) Error() string {
	msg := "LLM " + strconv.Itoa(e.Status)
	if e.Body == "" {
		return msg
	}
	body := e.Body
	if len(body) > providerBodyInMessage {
		body = body[:providerBodyInMessage] + "…"
	}
	return msg + ": " + body
}

// RedactedMarker stands where RedactProviderBody removed a value.
const RedactedMarker = "«redacted»"

// redactedKeys are the account identifiers providers echo in error bodies.
var redactedKeys = []string{"user_id", "account_id", "org_id", "organization"}

// RedactProviderBody returns what of a provider's error body may reach a
// message or a log: nothing for 401 and 403 (such replies often echo the
// credential), otherwise the trimmed body with the value of every
// "user_id", "account_id", "org_id" and "organization" key replaced by
// RedactedMarker. It works on the text, so a body that is not valid JSON
// (an HTML page, a cut-off reply) is redacted too. It does not shorten.
func RedactProviderBody(status int, body string) string {
	if status == 401 || status == 403 {
		return ""
	}
	return redactAccountIDs(strings.TrimSpace(body))
}

// redactAccountIDs replaces the value after each `"key":` of redactedKeys
// (spaces allowed around the colon) with RedactedMarker, in one pass from
// the left. By hand rather than with regexp, which the browser build does
// not link; kept short because every byte here ships to the browser.
func redactAccountIDs(s string) string {
	out, from := "", 0
	for i := strings.IndexByte(s, '"'); i >= 0; {
		v, n := accountValue(s[i:])
		if n > 0 {
			start := len(s) - len(v)
			out += s[from:start] + `"` + RedactedMarker + `"`
			from, i = start+n, start+n-1
		}
		j := strings.IndexByte(s[i+1:], '"')
		if j < 0 {
			break
		}
		i += j + 1
	}
	return out + s[from:]
}

// accountValue, for s starting at a quote, returns the text from the value
// on and the value's length when s starts with a redacted key, a colon and
// a value: a JSON string, or else bytes up to a comma, a brace or a space.
func accountValue(s string) (string, int) {
	for _, k := range redactedKeys {
		rest, ok := strings.CutPrefix(s[1:], k+`"`)
		if !ok {
			continue
		}
		rest, ok = strings.CutPrefix(strings.TrimLeft(rest, jsonSpace), ":")
		if !ok {
			return "", 0
		}
		v := strings.TrimLeft(rest, jsonSpace)
		return v, valueLen(v)
	}
	return "", 0
}

const jsonSpace = " \t\n\r\f"

// valueLen is the length of the JSON string or the bare word v starts with.
func valueLen(v string) int {
	if v != "" && v[0] == '"' {
		for j := 1; j < len(v); j++ {
			if v[j] == '"' {
				return j + 1
			}
			if v[j] == '\\' {
				if j+1 < len(v) && v[j+1] == '\n' {
					break
				}
				j++
			}
		}
	}
	n := strings.IndexAny(v, ",} \t\n\r\f")
	if n < 0 {
		n = len(v)
	}
	return n
}
