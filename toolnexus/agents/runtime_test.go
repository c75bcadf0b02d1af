package agents

import (
	"context"
	"errors"
	"strings"
	"testing"

	coreagents "github.com/toolnexus/wasm/core/agents"
	tn "github.com/toolnexus/wasm/toolnexus"
)

// vaultTeam: a lead delegates to a keeper whose tool needs approval, and
// no one on the chain answers, so the run halts for Resume.
func vaultTeam() (*Agent, *chatModel) {
	m := &chatModel{reply: func(model string, msgs []map[string]any) map[string]any {
		got := toolResults(msgs)
		switch {
		case model == "m-lead" && len(got) == 0:
			return call("l1", "task", `{"agent":"keeper","prompt":"open it"}`)
		case model == "m-lead":
			return say("lead: " + got[0])
		case len(got) == 0:
			return call("k1", "open_vault", `{}`)
		default:
			return say("keeper: " + got[0])
		}
	}}
	keeper := New("keeper", Spec{Does: "guards the vault", Model: "m-keeper", Tools: []tn.Tool{gatedTool}})
	return New("lead", Spec{Does: "leads", Model: "m-lead", Team: []*Agent{keeper}}), m
}

func TestResumeReturnsOnlyAnError(t *testing.T) {
	lead, model := vaultTeam()
	res, rt := lead.Run(Options{Transport: model}, "open the vault")
	defer rt.Close(rt.Root, nil)
	if res.Status != "pending" || res.Pending == nil {
		t.Fatalf("run = %+v, want pending", res)
	}
	if path, _ := res.Pending.Data["path"].([]string); strings.Join(path, "/") != "root/lead.1/keeper.1" {
		t.Errorf("path = %v, want the keeper's handle id in segments", res.Pending.Data["path"])
	}
	steps := []struct {
		name    string
		answer  tn.Answer
		wantErr error // nil: no error
	}{
		{"an answer to another request is refused", tn.Answer{ID: "nope", Ok: true}, tn.ErrCannotResume},
		{"the matching answer resumes the tree", tn.Answer{ID: res.Pending.ID, Ok: true}, nil},
		{"nothing waits any more", tn.Answer{ID: res.Pending.ID, Ok: true}, coreagents.ErrNotSuspended},
	}
	for _, s := range steps {
		err := rt.Resume(s.answer)
		if (s.wantErr == nil) != (err == nil) || (s.wantErr != nil && !errors.Is(err, s.wantErr)) {
			t.Fatalf("%s: err = %v, want %v", s.name, err, s.wantErr)
		}
	}
	lh, ok := rt.k.Handle("root/lead.1")
	if !ok {
		t.Fatal("no handle root/lead.1")
	}
	if r := rt.Wait(lh, 0); r.Status != "done" || r.Text != "lead: keeper: opened" {
		t.Errorf("after Resume, Wait = %+v", r)
	}
	for _, want := range []string{"running→suspended DURABLE", "resume with Answer(ok=true) at checkpoint", "task replay → REATTACH"} {
		if !strings.Contains(strings.Join(rt.Trace(), "\n"), want) {
			t.Errorf("trace lacks %q:\n%s", want, strings.Join(rt.Trace(), "\n"))
		}
	}
}

func TestConversationStoreIsTheOneGiven(t *testing.T) {
	given := tn.NewInMemoryConversationStore()
	for _, tc := range []struct {
		name  string
		store tn.ConversationStore
	}{{"given", given}, {"default", nil}} {
		t.Run(tc.name, func(t *testing.T) {
			m := &chatModel{reply: func(string, []map[string]any) map[string]any { return say("hi") }}
			a := New("greeter", Spec{Does: "greets"})
			rt := NewRuntime(Options{Transport: m, Store: tc.store, Registry: a.Registry()})
			defer rt.Close(rt.Root, nil)
			h, _ := rt.Spawn(rt.Root, "greeter", nil)
			if r := rt.RunTurn(h, "hello"); r.Status != "done" {
				t.Fatalf("turn = %+v", r)
			}
			st := rt.ConversationStore()
			if st == nil || (tc.store != nil && st != tc.store) {
				t.Fatalf("store = %v", st)
			}
			if msgs, _ := st.Get(h.ID); len(msgs) < 2 {
				t.Errorf("stored %d messages, want the turn's transcript", len(msgs))
			}
		})
	}
}

// TestRuntimeHooksGiveWayToTheAgents: an agent's own Hooks replace the
// runtime's for its turns; an agent without any uses the runtime's.
func TestRuntimeHooksGiveWayToTheAgents(t *testing.T) {
	var seen []string
	hook := func(who string) *tn.Hooks {
		return &tn.Hooks{BeforeLLM: func(_ context.Context, _ tn.BeforeLLMEvent) (*tn.LLMOverride, error) {
			seen = append(seen, who)
			return nil, nil
		}}
	}
	m := &chatModel{reply: func(string, []map[string]any) map[string]any { return say("ok") }}
	own := New("own", Spec{Does: "has hooks", Hooks: hook("own")})
	plain := New("plain", Spec{Does: "has none"})
	reg := own.Registry()
	for k, v := range plain.Registry() {
		reg[k] = v
	}
	rt := NewRuntime(Options{Transport: m, Registry: reg, Hooks: hook("runtime")})
	defer rt.Close(rt.Root, nil)
	for _, name := range []string{"own", "plain"} {
		h, _ := rt.Spawn(rt.Root, name, nil)
		rt.RunTurn(h, "go")
	}
	if strings.Join(seen, ",") != "own,runtime" {
		t.Errorf("hooks ran as %v, want [own runtime]", seen)
	}
}
