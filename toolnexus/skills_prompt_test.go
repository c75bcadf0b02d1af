package toolnexus

import (
	"context"
	"testing"
)

// As the Go port does, a run sends ClientOptions.SystemPrompt followed by
// the toolkit's SkillsPrompt, so the model sees the list the skill tool's
// description points to.
func TestSystemPromptCarriesTheToolkitsSkills(t *testing.T) {
	withSkills, err := CreateToolkit(context.Background(), Options{Builtins: false,
		Skills: []SkillDef{{Name: "refunds", Description: "How to refund an order", Content: "Check the order first."}}})
	if err != nil {
		t.Fatal(err)
	}
	skills := withSkills.SkillsPrompt()
	if skills == "" {
		t.Fatal("a toolkit with a described skill has an empty SkillsPrompt")
	}
	plain := mustToolkit(t)
	for _, tc := range []struct {
		name, system string
		tk           *Toolkit
		openai       string // the system message OpenAI-style requests carry ("" none)
	}{
		{"prompt and skills", "You are terse.", withSkills, "You are terse.\n\n" + skills},
		{"skills alone", "", withSkills, skills},
		{"prompt alone", "You are terse.", plain, "You are terse."},
		{"neither", "", plain, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, style := range []Style{StyleOpenAI, StyleAnthropic} {
				m := newScripted(t, style, turn{Text: "ok"})
				c := m.client(ClientOptions{SystemPrompt: tc.system})
				if _, err := c.Run(context.Background(), "hi", tc.tk); err != nil {
					t.Fatal(err)
				}
				body := m.sent()[0].Body
				got := body.Get("system").String()
				if style == StyleOpenAI {
					got = ""
					if first := body.Get("messages.0"); first.Get("role").String() == "system" {
						got = first.Get("content").String()
					}
				}
				if got != tc.openai {
					t.Errorf("%s: system prompt sent = %q, want %q", style, got, tc.openai)
				}
			}
		})
	}
}

// A conversation and a resumed run send the same extended prompt.
func TestSkillsPromptReachesConversationsAndResumes(t *testing.T) {
	tk, err := CreateToolkit(context.Background(), Options{Builtins: false,
		Skills:     []SkillDef{{Name: "refunds", Description: "How to refund an order"}},
		ExtraTools: []Tool{NativeTool("pay", "pays", nil, func(context.Context, map[string]any) (string, error) { return "paid", nil })}})
	if err != nil {
		t.Fatal(err)
	}
	want := "Base.\n\n" + tk.SkillsPrompt()
	m := newScripted(t, StyleOpenAI, turn{Text: "one"}, turn{Text: "two"})
	c := m.client(ClientOptions{SystemPrompt: "Base."})
	cv := c.Conversation(tk)
	for _, p := range []string{"a", "b"} {
		if _, err := cv.Ask(context.Background(), p); err != nil {
			t.Fatal(err)
		}
	}
	for i, r := range m.sent() {
		if got := r.Body.Get("messages.0.content").String(); got != want {
			t.Errorf("request %d: system = %q, want %q", i+1, got, want)
		}
	}
}
