package core

import (
	"context"
	"strings"
	"testing"
)

// TestMCPNonTextContentReachesTheModel: a tools/call result mixing text,
// an image and resources comes back as one text that names each part.
func TestMCPNonTextContentReachesTheModel(t *testing.T) {
	f := newMemoryMCP(`{"name":"shot","inputSchema":{"type":"object"}}`, `{"name":"bad","inputSchema":{"type":"object"}}`)
	f.results["shot"] = `{"content":[{"type":"text","text":"here it is"},{"type":"image","mimeType":"image/png","data":"iVBORw0KGgo="},` +
		`{"type":"resource_link","uri":"file:///s.png","name":"s.png"}]}`
	f.results["bad"] = `{"isError":true,"content":[{"type":"image","mimeType":"image/jpeg","data":"/9j/"}]}`
	tk, err := CreateToolkit(context.Background(), Options{MCP: f.config("m", ""), Transport: f})
	if err != nil {
		t.Fatal(err)
	}
	defer tk.Close()
	res, err := tk.Execute(context.Background(), "m_shot", nil)
	if want := "here it is\n[image: image/png, 8 bytes]\n[resource link: s.png <file:///s.png>]"; err != nil || res.IsError || res.Output != want {
		t.Errorf("shot: %+v %v", res, err)
	}
	res, _ = tk.Execute(context.Background(), "m_bad", nil)
	if !res.IsError || !strings.Contains(res.Output, "[image: image/jpeg, 3 bytes]") {
		t.Errorf("an error result with only an image: %+v", res)
	}
}
