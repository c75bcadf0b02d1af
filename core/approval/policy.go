package approval

import (
	"context"
	fmt "github.com/toolnexus/wasm/internal/fmtx" // fmt without reflection: internal/fmtx
	"sync"
	"time"

	"github.com/toolnexus/wasm/core/tool"
)

// Policy is an approval policy: its rules, the grants given in each
// conversation, and where decisions go. Give one to any number of
// toolkits (core.Options.Approvals: a Worker's per-request toolkits, an
// agent's per-turn ones) and they share its grants; core's loop reads it,
// a host lists and revokes grants through it. Its methods are safe for
// concurrent use; set its fields before the first toolkit uses it.
//
//	var log approval.Log
//	policy := &approval.Policy{Rules: rules, OnDecision: func(e approval.Entry) { log.Add(e) }}
//	tk, err := core.CreateToolkit(ctx, core.Options{ExtraTools: tools, Approvals: policy})
type Policy struct {
	Rules      []Rule
	OnDecision func(Entry)
	once       sync.Once
	err        error
	grants     *Grants
}

// Check reports every problem of the policy's rules (Check), once: core's
// CreateToolkit refuses a policy with a problem.
func (p *Policy) Check() error {
	if p == nil {
		return nil
	}
	p.init()
	return p.err
}

func (p *Policy) init() {
	p.once.Do(func() {
		p.err = Check(p.Rules)
		if p.grants == nil {
			p.grants = &Grants{}
		}
	})
}

// Derive is a policy with other rules and another OnDecision that shares
// p's grants: an agent's rules in a team, say, whose grants hold for the
// whole conversation.
func (p *Policy) Derive(rules []Rule, onDecision func(Entry)) *Policy {
	p.init()
	return &Policy{Rules: rules, OnDecision: onDecision, grants: p.grants}
}

// Decide is Decide over the policy's rules (the zero Verdict without any).
func (p *Policy) Decide(c Call) Verdict {
	if p == nil || len(p.Rules) == 0 {
		return Verdict{}
	}
	return Decide(p.Rules, c)
}

// Granted returns the grant of conversation conv that approves a call of
// tool with args, if one does.
func (p *Policy) Granted(conv, tool string, args map[string]any) (Grant, bool) {
	if p == nil {
		return Grant{}, false
	}
	p.init()
	return p.grants.Match(conv, tool, CanonicalArgs(args))
}

// Note applies a decision made in conversation conv: an approval that
// grants holds for later calls there, a revocation ends one. With report,
// OnDecision receives it (not for one read back from a journal).
func (p *Policy) Note(conv string, e Entry, report bool) {
	if p == nil {
		return
	}
	p.init()
	switch {
	case e.Grant != "":
		args, _ := decodeArgs(e.Ran)
		p.grants.Add(Grant{ID: e.Request, Conversation: conv, Tool: e.Tool, Scope: e.Grant, Args: CanonicalArgs(args), Approver: e.Approver})
	case e.Decision == Revoked:
		p.grants.Revoke(conv, e.Request)
	}
	if report && p.OnDecision != nil {
		p.OnDecision(e)
	}
}

// Grants returns conversation conv's grants, oldest first.
func (p *Policy) Grants(conv string) []Grant {
	if p == nil {
		return nil
	}
	p.init()
	return p.grants.List(conv)
}

// Revoke takes back grant id of conversation conv, so that later calls
// ask again. The revocation is a decision too (Revoked, by approver, from
// where it was asked), which OnDecision receives; false when conv has no
// such grant.
func (p *Policy) Revoke(conv, id, approver, from string) (Entry, bool) {
	if p == nil {
		return Entry{}, false
	}
	p.init()
	g, ok := p.grants.Revoke(conv, id)
	if !ok {
		return Entry{}, false
	}
	e := Entry{At: Stamp(time.Now()), Conversation: conv, Tool: g.Tool, Request: id, Decision: Revoked, Approver: approver, From: from}
	if p.OnDecision != nil {
		p.OnDecision(e)
	}
	return e, true
}

// Forget drops conversation conv's grants (it ended).
func (p *Policy) Forget(conv string) {
	if p != nil {
		p.init()
		p.grants.Forget(conv)
	}
}

// DeniedResult is the result of a call of the named tool a rule stopped:
// the model reads why; Metadata["denied"] names the rule.
func DeniedResult(name string, v Verdict) tool.ToolResult {
	why := v.Reason
	if why == "" {
		why = "the rule " + v.Rule + " does not allow it"
	}
	return tool.ToolResult{Output: fmt.Sprintf("tool %q was not run: denied: %s", name, why), IsError: true, Metadata: map[string]any{"denied": v.Rule}}
}

type conversationKey struct{}

// WithConversation names the conversation the runs made with ctx belong
// to: an approval's "allow for this conversation" (Answer.Data["grant"])
// approves later calls of its tool there, and the record's entries name
// it. A run without one is a conversation of its own: its grants end with
// it (with its journal, for a journaled run).
func WithConversation(ctx context.Context, id string) context.Context {
	if ctx == nil {
		ctx = context.Background()
	}
	return context.WithValue(ctx, conversationKey{}, id)
}

// ConversationOf returns the conversation WithConversation named ("" for
// none).
func ConversationOf(ctx context.Context) string {
	id, _ := ctx.Value(conversationKey{}).(string)
	return id
}
