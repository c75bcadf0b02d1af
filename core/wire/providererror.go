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
	// Body is the provider's reply (its first 4 KiB as read), redacted by
	// RedactProviderBody and with the API key removed; "" for 401 and 403.
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

// redactAccountIDs replaces the value after each `"key" :` of redactedKeys.
// By hand rather than with regexp, which the browser build does not link.
func redactAccountIDs(s string) string {
	var out []byte // nil until the first replacement
	last := 0
	for i := 0; i < len(s); i++ {
		if s[i] != '"' {
			continue
		}
		start, end, ok := accountValueAt(s, i)
		if !ok {
			continue
		}
		out = append(out, s[last:start]...)
		out = append(out, `"`+RedactedMarker+`"`...)
		last, i = end, end-1
	}
	if out == nil {
		return s
	}
	return string(append(out, s[last:]...))
}

// accountValueAt reports where the value of a redacted key starts and ends
// when s[i:] begins with one of the quoted keys, a colon and a value: a
// JSON string, or else a run of bytes up to a comma, a brace or a space.
func accountValueAt(s string, i int) (start, end int, ok bool) {
	j := -1
	for _, k := range redactedKeys {
		if len(s) > i+len(k)+1 && s[i+1:i+1+len(k)] == k && s[i+1+len(k)] == '"' {
			j = i + len(k) + 2
			break
		}
	}
	if j < 0 {
		return 0, 0, false
	}
	j = skipSpace(s, j)
	if j >= len(s) || s[j] != ':' {
		return 0, 0, false
	}
	start = skipSpace(s, j+1)
	if end, ok := quotedEnd(s, start); ok {
		return start, end, true
	}
	end = start
	for end < len(s) && s[end] != ',' && s[end] != '}' && !isSpace(s[end]) {
		end++
	}
	return start, end, end > start
}

// quotedEnd returns the index after the JSON string starting at s[i].
func quotedEnd(s string, i int) (int, bool) {
	if i >= len(s) || s[i] != '"' {
		return 0, false
	}
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '"':
			return j + 1, true
		case '\\':
			if j+1 >= len(s) || s[j+1] == '\n' {
				return 0, false
			}
			j++
		}
	}
	return 0, false
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'
}

func skipSpace(s string, i int) int {
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	return i
}
