package core

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/toolnexus/wasm/core/approval"
	"github.com/toolnexus/wasm/core/journal"
)

// Approval rules, grants and the record as the loop applies them (issue
// 32; core/approval holds the rules and the record).

// callerModel is an in-process model that asks for the call its prompt
// names ("call <tool> <args JSON>") and then answers "ok: <results>".
func callerModel(ctx context.Context, req GenerateRequest) (GenerateResponse, error) {
	last := req.Messages[len(req.Messages)-1]
	if last["role"] == "tool" {
		var outs []string
		for i := len(req.Messages) - 1; i >= 0 && req.Messages[i]["role"] == "tool"; i-- {
			outs = append([]string{req.Messages[i]["content"].(string)}, outs...)
		}
		return GenerateResponse{Text: "ok: " + strings.Join(outs, " | ")}, nil
	}
	text, _ := last["content"].(string)
	var calls []ToolRequest
	for i, line := range strings.Split(text, "\n") {
		name, args, _ := strings.Cut(strings.TrimPrefix(line, "call "), " ")
		calls = append(calls, ToolRequest{ID: "c" + string(rune('1'+i)), Name: name, Arguments: args})
	}
	return GenerateResponse{ToolCalls: calls}, nil
}

// ledger counts what the tools really did.
type ledger struct {
	mu  sync.Mutex
	ran []string
}

func (l *ledger) tool(name string, needsApproval bool) Tool {
	return Tool{Name: name, Source: SourceNative, NeedsApproval: needsApproval, Execute: func(args map[string]any, _ *ToolContext) (ToolResult, error) {
		l.mu.Lock()
		defer l.mu.Unlock()
		l.ran = append(l.ran, name+" "+mustJSON(args))
		return ToolResult{Output: name + " done"}, nil
	}}
}

func (l *ledger) list() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.ran...)
}

func rulesOf(t *testing.T, text string) *approval.Policy {
	t.Helper()
	rules, err := approval.Parse([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return &approval.Policy{Rules: rules}
}

func decisionsOf(res RunResult) string {
	var out []string
	for _, e := range res.Decisions {
		s := e.Tool + ":" + e.Decision
		if e.Rule != "" {
			s += "(" + e.Rule + ")"
		}
		if e.GrantedBy != "" {
			s += "(grant)"
		}
		out = append(out, s)
	}
	return strings.Join(out, " ")
}

func TestRulesAllowDenyAsk(t *testing.T) {
	var l ledger
	policy := rulesOf(t, `[
	 {"name": "small refunds", "tool": "refund", "when": [{"path": "amount", "op": "<=", "value": 50}], "decision": "allow"},
	 {"name": "no wipes", "tool": "wipe", "decision": "deny", "reason": "wiping is done by the team"},
	 {"name": "look twice", "tool": "lookup", "when": [{"path": "customer", "op": "startsWith", "value": "vip-"}], "decision": "ask"}
	]`)
	tk, err := CreateToolkit(context.Background(), Options{ExtraTools: []Tool{l.tool("refund", true), l.tool("wipe", false), l.tool("lookup", false)}, Approvals: policy})
	if err != nil {
		t.Fatal(err)
	}
	c := CreateGenerateClient(callerModel, ClientOptions{Model: "m"})
	ctx := context.Background()

	// allow: at the boundary, the approval-needing refund runs without asking.
	res, err := c.Run(ctx, `call refund {"amount":50}`, tk)
	if err != nil || res.Status != StatusDone || decisionsOf(res) != "refund:allowed(small refunds)" {
		t.Fatalf("allow: %v %s %q", err, res.Status, decisionsOf(res))
	}
	// Just above it, no rule matches: the tool's own NeedsApproval asks.
	res, _ = c.Run(ctx, `call refund {"amount":50.5}`, tk)
	if res.Status != StatusPending || res.Pending.Data["rule"] != nil || len(res.Decisions) != 0 {
		t.Fatalf("above the boundary: %s %v %q", res.Status, res.Pending, decisionsOf(res))
	}
	// deny: the model reads the reason, the tool does not run.
	res, _ = c.Run(ctx, `call wipe {}`, tk)
	if res.Status != StatusDone || !strings.Contains(res.Text, `tool "wipe" was not run: denied: wiping is done by the team`) || decisionsOf(res) != "wipe:denied(no wipes)" {
		t.Fatalf("deny: %s %q %q", res.Status, res.Text, decisionsOf(res))
	}
	if e := res.Decisions[0]; e.Reason != "wiping is done by the team" || e.From != approval.FromRule || e.Ran != nil || string(e.Asked) != "{}" {
		t.Errorf("deny entry = %+v", e)
	}
	// ask: a tool that needs no approval asks when a rule says so.
	res, _ = c.Run(ctx, `call lookup {"customer":"vip-7"}`, tk)
	if res.Status != StatusPending || res.Pending.Data["rule"] != "look twice" {
		t.Fatalf("ask: %s %+v", res.Status, res.Pending)
	}
	done, err := c.RunWithAnswer(ctx, tk, res.Messages, *res.Pending, Answer{ID: res.Pending.ID, Ok: true})
	if err != nil || done.Status != StatusDone || decisionsOf(done) != "lookup:approved(look twice)" || done.Decisions[0].From != approval.FromResume {
		t.Fatalf("asked, approved: %v %s %q %+v", err, done.Status, decisionsOf(done), done.Decisions)
	}
	res, _ = c.Run(ctx, `call lookup {"customer":"c-7"}`, tk)
	if res.Status != StatusDone || len(res.Decisions) != 0 {
		t.Fatalf("no rule: %s %q", res.Status, decisionsOf(res))
	}
	if got := l.list(); strings.Join(got, ";") != `refund {"amount":50};lookup {"customer":"vip-7"};lookup {"customer":"c-7"}` {
		t.Errorf("ran %v", got)
	}
}

func TestAlwaysAskToolIgnoresAllowRulesAndGrants(t *testing.T) {
	var l ledger
	wire := l.tool("wire", false)
	wire.AlwaysAsk = true
	policy := rulesOf(t, `[{"tool": "wire", "decision": "allow"}]`)
	tk, err := CreateToolkit(context.Background(), Options{ExtraTools: []Tool{wire}, Approvals: policy})
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := tk.Get("wire"); !got.NeedsApproval {
		t.Fatal("AlwaysAsk does not imply NeedsApproval")
	}
	var asked []Request
	c := CreateGenerateClient(callerModel, ClientOptions{Model: "m", WaitFor: func(r Request) (Answer, error) {
		asked = append(asked, r)
		return Answer{ID: r.ID, Ok: true, Data: map[string]any{"grant": approval.GrantAny}}, nil
	}})
	ctx := approval.WithConversation(context.Background(), "conv-1")
	for i := 0; i < 2; i++ {
		if _, err := c.Run(ctx, `call wire {"amount":1}`, tk); err != nil {
			t.Fatal(err)
		}
	}
	if len(asked) != 2 || asked[0].Data["alwaysAsk"] != true || asked[0].Data["rule"] != "rule 1" {
		t.Fatalf("asked %d times: %+v", len(asked), asked)
	}
	if err := CheckApprovalEdit(asked[0], Answer{ID: "x", Ok: true, Data: map[string]any{"grant": "any"}}); err == nil {
		t.Error("a grant of an always-ask tool passes CheckApprovalEdit")
	}
	if n := len(tk.Approvals().Grants("conv-1")); n != 0 {
		t.Errorf("%d grants of an always-ask tool", n)
	}
}

// TestAllowForThisConversation: an approval with a grant approves later
// calls in the same conversation — these arguments, or any — and says so;
// another conversation, other arguments (for "args") and a revoked grant
// ask again.
func TestAllowForThisConversation(t *testing.T) {
	var l ledger
	var entries []approval.Entry
	var mu sync.Mutex
	policy := &approval.Policy{OnDecision: func(e approval.Entry) { mu.Lock(); entries = append(entries, e); mu.Unlock() }}
	tk, err := CreateToolkit(context.Background(), Options{ExtraTools: []Tool{l.tool("refund", true), l.tool("charge", true)}, Approvals: policy})
	if err != nil {
		t.Fatal(err)
	}
	var asked []string
	scope := map[string]string{"refund": approval.GrantArgs, "charge": approval.GrantAny}
	c := CreateGenerateClient(callerModel, ClientOptions{Model: "m", WaitFor: func(r Request) (Answer, error) {
		asked = append(asked, r.Data["tool"].(string)+" "+mustJSON(r.Data["args"]))
		return Answer{ID: r.ID, Ok: true, Data: map[string]any{"grant": scope[r.Data["tool"].(string)], "approver": "in page", "from": "tab"}}, nil
	}})
	conv1 := approval.WithConversation(context.Background(), "conv-1")
	conv2 := approval.WithConversation(context.Background(), "conv-2")
	run := func(ctx context.Context, prompt string) RunResult {
		t.Helper()
		res, err := c.Run(ctx, prompt, tk)
		if err != nil || res.Status != StatusDone {
			t.Fatalf("%s: %v %s", prompt, err, res.Status)
		}
		return res
	}
	first := run(conv1, `call refund {"order":"42"}`)
	if e := first.Decisions[0]; e.Decision != approval.Approved || e.Grant != approval.GrantArgs || e.Approver != "in page" || e.From != "tab" || e.Conversation != "conv-1" {
		t.Fatalf("granting entry = %+v", e)
	}
	again := run(conv1, `call refund {"order":"42"}`)
	if e := again.Decisions[0]; e.GrantedBy != first.Decisions[0].Request || e.From != approval.FromGrant || e.Approver != "in page" {
		t.Fatalf("approved by the grant: %+v", e)
	}
	run(conv1, `call refund {"order":"43"}`) // other arguments: asks
	run(conv2, `call refund {"order":"42"}`) // another conversation: asks
	run(conv1, `call charge {"amount":1}`)
	run(conv1, `call charge {"amount":2}`) // any arguments: approved
	if want := `refund {"order":"42"};refund {"order":"43"};refund {"order":"42"};charge {"amount":1}`; strings.Join(asked, ";") != want {
		t.Fatalf("asked %q\nwant  %q", strings.Join(asked, ";"), want)
	}
	grants := tk.Approvals().Grants("conv-1")
	if len(grants) != 3 { // refund 42, refund 43, charge
		t.Fatalf("grants %+v", grants)
	}
	e, ok := tk.Approvals().Revoke("conv-1", grants[2].ID, "in page", approval.FromTab)
	if !ok || e.Decision != approval.Revoked || e.Tool != "charge" {
		t.Fatalf("revoke = %+v %v", e, ok)
	}
	run(conv1, `call charge {"amount":3}`) // revoked: asks again
	if n := len(asked); n != 5 {
		t.Fatalf("asked %d times after the revocation, want 5", n)
	}
	mu.Lock()
	defer mu.Unlock()
	var words []string
	for _, e := range entries {
		words = append(words, e.Tool+":"+e.Decision+map[bool]string{true: "+grant"}[e.GrantedBy != ""])
	}
	if want := "refund:approved refund:approved+grant refund:approved refund:approved charge:approved charge:approved+grant charge:revoked charge:approved"; strings.Join(words, " ") != want {
		t.Errorf("OnDecision:\n%s\nwant\n%s", strings.Join(words, " "), want)
	}
}

// TestRecordOfARun: one entry per decision across a run with a rule, an
// edit and a decline; the journal holds them, a continuation does not add
// them again, and a chained record verifies.
func TestRecordOfARun(t *testing.T) {
	var l ledger
	var log approval.Log
	policy := rulesOf(t, `[{"name": "lookups", "tool": "lookup", "decision": "allow"}]`)
	policy.OnDecision = func(e approval.Entry) { log.Add(e) }
	refund := l.tool("refund", true)
	refund.InputSchema = JSONSchema{"type": "object", "properties": map[string]any{"amount": map[string]any{"type": "number"}}}
	tk, err := CreateToolkit(context.Background(), Options{ExtraTools: []Tool{refund, l.tool("wipe", true), l.tool("lookup", false)}, Approvals: policy})
	if err != nil {
		t.Fatal(err)
	}
	c := CreateGenerateClient(callerModel, ClientOptions{Model: "m"})
	ctx := context.Background()
	j := journal.NewMemory()
	j.Record(ctx, journal.Start("run-9", "call lookup {\"q\":1}\ncall refund {\"amount\":900}\ncall wipe {}", nil, nil))
	res, err := c.Continue(ctx, tk, j)
	if err != nil || res.Status != StatusPending {
		t.Fatalf("%v %s", err, res.Status)
	}
	edit := Answer{ID: res.Pending.ID, Ok: true, Data: map[string]any{"args": map[string]any{"amount": float64(90)}, "approver": "alice"}}
	j.Record(ctx, journal.AnswerEntry(edit, "link"))
	res, err = c.Continue(ctx, tk, j)
	if err != nil || res.Status != StatusPending {
		t.Fatalf("%v %s", err, res.Status)
	}
	j.Record(ctx, journal.AnswerEntry(AnswerDeclined(res.Pending.ID, "not today"), "api"))
	res, err = c.Continue(ctx, tk, j)
	if err != nil || res.Status != StatusDone {
		t.Fatalf("%v %s", err, res.Status)
	}
	if got := decisionsOf(res); got != "lookup:allowed(lookups) refund:edited wipe:declined" {
		t.Fatalf("decisions %q", got)
	}
	edited, declined := res.Decisions[1], res.Decisions[2]
	if string(edited.Asked) != `{"amount":900}` || string(edited.Ran) != `{"amount":90}` || edited.Approver != "alice" || edited.From != "link" || edited.Run != "run-9" {
		t.Errorf("edited entry = %+v", edited)
	}
	if declined.Reason != "not today" || declined.From != "api" || declined.Ran != nil {
		t.Errorf("declined entry = %+v", declined)
	}
	if got := strings.Join(l.list(), ";"); got != `lookup {"q":1};refund {"amount":90}` {
		t.Errorf("ran %q", got)
	}
	// The same journal continued again (an answer replayed, a second
	// executor): no entry is added, nothing runs again.
	again, err := c.Continue(ctx, tk, j)
	if err != nil || len(again.Decisions) != 3 || len(log.Entries()) != 3 || len(l.list()) != 2 {
		t.Fatalf("again: %v, %d decisions, %d logged, %d ran", err, len(again.Decisions), len(log.Entries()), len(l.list()))
	}
	if err := j.Record(ctx, journal.AnswerEntry(Answer{ID: edit.ID, Ok: true}, "link")); err == nil {
		t.Error("the journal took a second answer to the same request")
	}
	if err := approval.Verify(log.Entries(), log.Head()); err != nil {
		t.Fatal(err)
	}
	entries, _ := j.Load(ctx)
	var kinds []string
	for _, e := range entries {
		if e.Kind == journal.KindDecision || e.Kind == journal.KindAnswer || e.Kind == journal.KindCall {
			kinds = append(kinds, e.Kind)
		}
	}
	// Each decision comes before what it lets run.
	if got := strings.Join(kinds, " "); got != "decision call answer decision call answer decision" {
		t.Errorf("journal %s", got)
	}
}

// TestRulesForMCPAndBuiltinTools: host rules name MCP tools by source and
// server, and built-ins by source; an MCP tool's own approval says which
// of the server's rules asked.
func TestRulesForMCPAndBuiltinTools(t *testing.T) {
	f := newMemoryMCP(annotatedTools...)
	policy := rulesOf(t, `[
	 {"name": "s deletes", "source": "mcp", "server": "s", "tool": "s_delete", "decision": "deny", "reason": "not from chat"},
	 {"name": "s reads", "source": "mcp", "server": "s", "tool": "s_read", "decision": "ask"}
	]`)
	tk, err := CreateToolkit(context.Background(), Options{MCP: f.config("s", ``), Transport: f, Approvals: policy})
	if err != nil {
		t.Fatal(err)
	}
	defer tk.Close()
	if plain, _ := tk.Get("s_plain"); !plain.NeedsApproval || plain.ApprovalRule != "mcp server s: not annotated readOnlyHint" {
		t.Fatalf("s_plain = %+v", plain)
	}
	c := CreateGenerateClient(callerModel, ClientOptions{Model: "m"})
	ctx := context.Background()
	res, _ := c.Run(ctx, `call s_delete {}`, tk)
	if !strings.Contains(res.Text, "denied: not from chat") || decisionsOf(res) != "s_delete:denied(s deletes)" {
		t.Errorf("deny an MCP tool: %q %q", res.Text, decisionsOf(res))
	}
	res, _ = c.Run(ctx, `call s_read {}`, tk)
	if res.Status != StatusPending || res.Pending.Data["rule"] != "s reads" || res.Pending.Data["server"] != "s" {
		t.Errorf("ask for a read-only MCP tool: %s %+v", res.Status, res.Pending)
	}
	res, _ = c.Run(ctx, `call s_plain {}`, tk)
	if res.Status != StatusPending || res.Pending.Data["rule"] != "mcp server s: not annotated readOnlyHint" {
		t.Errorf("the server's own rule: %s %+v", res.Status, res.Pending)
	}
}

func TestRulesForBuiltinTools(t *testing.T) {
	files, _ := NewMemFS(nil)
	policy := rulesOf(t, `[
	 {"name": "drafts", "source": "builtin", "tool": "write", "when": [{"path": "path", "op": "startsWith", "value": "drafts/"}], "decision": "allow"},
	 {"name": "nothing else", "source": "builtin", "tool": "write", "decision": "deny", "reason": "write drafts only"}
	]`)
	tk, err := CreateToolkit(context.Background(), Options{Builtins: BuiltinsConfig{Files: files}, Approvals: policy})
	if err != nil {
		t.Fatal(err)
	}
	c := CreateGenerateClient(callerModel, ClientOptions{Model: "m"})
	ctx := context.Background()
	res, err := c.Run(ctx, `call write {"path":"drafts/a.md","content":"hi"}`, tk)
	if err != nil || res.Status != StatusDone || decisionsOf(res) != "write:allowed(drafts)" {
		t.Fatalf("drafts: %v %s %q", err, res.Status, decisionsOf(res))
	}
	res, _ = c.Run(ctx, `call write {"path":"drafts/../secret.md","content":"x"}`, tk)
	if !strings.Contains(res.Text, "denied: write drafts only") {
		t.Fatalf("escaping drafts: %q", res.Text)
	}
	if got := files.Snapshot(); len(got) != 1 || got["drafts/a.md"] != "hi" {
		t.Errorf("files %v", got)
	}
}

func TestBadRulesRefuseTheToolkit(t *testing.T) {
	policy := &approval.Policy{Rules: []approval.Rule{{Decision: "maybe"}, {Decision: approval.Allow, When: []approval.Cond{{Path: "", Op: "=="}}}}}
	_, err := CreateToolkit(context.Background(), Options{Approvals: policy})
	if err == nil || !strings.Contains(err.Error(), "rule 1") || !strings.Contains(err.Error(), "rule 2") {
		t.Fatalf("CreateToolkit = %v", err)
	}
}

// The record's entries travel in RunResult's JSON.
func TestDecisionsInTheResultJSON(t *testing.T) {
	var l ledger
	tk, _ := CreateToolkit(context.Background(), Options{ExtraTools: []Tool{l.tool("lookup", false)}, Approvals: rulesOf(t, `[{"tool":"lookup","decision":"allow"}]`)})
	res, _ := CreateGenerateClient(callerModel, ClientOptions{Model: "m"}).Run(context.Background(), `call lookup {}`, tk)
	b, _ := json.Marshal(res)
	if !strings.Contains(string(b), `"decisions":[{"seq":0,`) || !strings.Contains(string(b), `"decision":"allowed"`) {
		t.Errorf("result JSON: %s", b)
	}
}
