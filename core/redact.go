package core

import "strings"

// redact removes the API key from text that may reach a log or a caller.
// Providers echo a bad key back, whole or masked ("sk-abc1***wxyz"), so a
// word that starts with the key's first 8 characters goes too.
func (r *run) redact(s string) string { return redactKey(s, r.c.opts.APIKey) }

// providerBody is what a ProviderError keeps of a reply's body: without the
// API key, then ClientOptions.RedactBody's, or dropAuthBody's.
func (r *run) providerBody(status int, body string) string {
	body = r.redact(body)
	if f := r.c.opts.RedactBody; f != nil {
		return f(status, body)
	}
	return dropAuthBody(status, body)
}

// dropAuthBody drops a 401 or 403 reply's body (it may echo credentials).
func dropAuthBody(status int, body string) string {
	if status == 401 || status == 403 {
		return ""
	}
	return strings.TrimSpace(body)
}

func redactKey(s, key string) string {
	if len(key) < 4 {
		return s
	}
	s = strings.ReplaceAll(s, key, "[redacted]")
	if len(key) < 12 {
		return s
	}
	prefix := key[:8]
	var b strings.Builder
	for {
		i := strings.Index(s, prefix)
		if i < 0 {
			break
		}
		end := i + len(prefix)
		for end < len(s) && !strings.ContainsRune(" \t\n\"',;)}]", rune(s[end])) {
			end++
		}
		b.WriteString(s[:i])
		b.WriteString("[redacted]")
		s = s[end:]
	}
	b.WriteString(s)
	return b.String()
}

// withoutQuery drops a URL's query string from messages: some providers
// take the key as a query parameter.
func withoutQuery(u string) string {
	if i := strings.IndexByte(u, '?'); i >= 0 {
		return u[:i] + "?…"
	}
	return u
}
