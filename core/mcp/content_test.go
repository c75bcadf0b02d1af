package mcp

import (
	"encoding/base64"
	"strconv"
	"testing"

	"github.com/tidwall/gjson"
)

func TestMCPContentText(t *testing.T) {
	png := base64.StdEncoding.EncodeToString([]byte("\x89PNG\r\n\x1a\n-and-some-pixels"))
	tests := []struct{ name, block, want string }{
		{"text", `{"type":"text","text":"hi"}`, "hi"},
		{"image", `{"type":"image","mimeType":"image/png","data":"` + png + `"}`, "[image: image/png, 24 bytes]"},
		{"audio without a type", `{"type":"audio","data":"AAAA"}`, "[audio: unknown type, 3 bytes]"},
		{"image with bad data", `{"type":"image","mimeType":"image/gif","data":"not base64!"}`, "[image: image/gif, invalid base64 data]"},
		{"resource link, all fields", `{"type":"resource_link","uri":"file:///r/a.md","name":"a.md","mimeType":"text/markdown","description":"the readme"}`,
			"[resource link: a.md <file:///r/a.md> (text/markdown): the readme]"},
		{"resource link, title only", `{"type":"resource_link","uri":"https://x/y","title":"Y"}`, "[resource link: Y <https://x/y>]"},
		{"resource link, uri only", `{"type":"resource_link","uri":"https://x/y"}`, "[resource link: <https://x/y>]"},
		{"embedded text", `{"type":"resource","resource":{"uri":"file:///a.txt","mimeType":"text/plain","text":"line 1\nline 2"}}`, "[resource <file:///a.txt>]\nline 1\nline 2"},
		{"embedded json", `{"type":"resource","resource":{"uri":"mem://c","mimeType":"application/json","text":"{}"}}`, "[resource <mem://c> (application/json)]\n{}"},
		{"embedded blob", `{"type":"resource","resource":{"uri":"file:///a.pdf","mimeType":"application/pdf","blob":"JVBERi0xLjQK"}}`, "[resource <file:///a.pdf>: application/pdf, 9 bytes]"},
		{"embedded, empty", `{"type":"resource","resource":{"uri":"x:y"}}`, "[resource <x:y>: no text or blob]"},
		{"unknown type", `{"type":"hologram"}`, `[content of unsupported type "hologram" omitted]`},
	}
	for _, tc := range tests {
		if got := mcpContentText(gjson.Parse(tc.block)); got != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, got, tc.want)
		}
	}
}

func TestBase64Size(t *testing.T) {
	for n := 0; n < 40; n++ {
		data := make([]byte, n)
		for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding} {
			s := enc.EncodeToString(data)
			want := strconv.Itoa(n) + " bytes"
			if n == 1 {
				want = "1 byte"
			}
			if got := base64Size(s); got != want {
				t.Errorf("%d bytes as %q: %s", n, s, got)
			}
		}
	}
	for _, bad := range []string{"A", "AA=A", "A@==", "AAAAA", "AA==="} {
		if got := base64Size(bad); got != "invalid base64 data" {
			t.Errorf("%q: %s", bad, got)
		}
	}
	if got := base64Size("AAAA\nAAAA\r\n"); got != "6 bytes" {
		t.Errorf("with line breaks: %s", got)
	}
}
