package worker

import (
	"crypto/subtle"
	"strconv"
	"strings"
	"sync"

	"github.com/tidwall/gjson"
	"github.com/toolnexus/wasm/core"
	"github.com/toolnexus/wasm/core/approval"
)

// ApprovalRulesSetting is the Worker setting of its approval rules
// (core/approval, issue 32): a JSON array of rules, read before every
// call of every run, first match wins:
//
//	[{"name": "small refunds", "tool": "refund",
//	  "when": [{"path": "amount", "op": "<=", "value": 50}], "decision": "allow"},
//	 {"tool": "delete_*", "decision": "deny", "reason": "deleting is done by the team"},
//	 {"source": "mcp", "server": "github", "decision": "ask"}]
//
// Every problem of the setting is named at once (ConfigErrors), like
// AGENTS: while any is there nothing runs (the routes answer 500 config,
// GET /readyz names them). A rule naming a tool by its exact name is
// checked against the tools the Worker offers when that set is fixed (no
// MCP_CONFIG, A2A_AGENTS or skills).
const ApprovalRulesSetting = "APPROVAL_RULES"

// rulesCache keeps the parse of the setting's text: an isolate reads the
// same text on every request.
var rulesCache struct {
	sync.Mutex
	text  string
	rules []approval.Rule
	err   error
}

// ApprovalRules reads APPROVAL_RULES ("" sets none); known, when not nil,
// says whether the Worker offers a tool of that name.
func ApprovalRules(text string, known func(string) bool) ([]approval.Rule, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return nil, nil
	}
	rulesCache.Lock()
	rules, err, hit := rulesCache.rules, rulesCache.err, rulesCache.text == text
	rulesCache.Unlock()
	if !hit {
		rules, err = approval.Parse([]byte(text))
		rulesCache.Lock()
		rulesCache.text, rulesCache.rules, rulesCache.err = text, rules, err
		rulesCache.Unlock()
	}
	var problems ConfigErrors
	if list, ok := err.(approval.Problems); ok {
		for _, p := range list {
			problems.add(&ConfigError{ApprovalRulesSetting, p})
		}
	} else if err != nil {
		problems.add(&ConfigError{ApprovalRulesSetting, err.Error()})
	}
	if known != nil && gjson.Valid(text) {
		// Read leniently, so that a rule naming a tool the Worker does not
		// offer is named with the list's other problems.
		i := 0
		gjson.Parse(text).ForEach(func(_, r gjson.Result) bool {
			i++
			tool, source := r.Get("tool").String(), r.Get("source").String()
			if tool != "" && !strings.HasSuffix(tool, "*") && source != "mcp" && source != "a2a" && !known(tool) {
				problems.add(&ConfigError{ApprovalRulesSetting, "rule " + strconv.Itoa(i) + ": tool " + QuoteClip(tool) + " is not offered by this Worker (GET /v1/tools lists them)"})
			}
			return true
		})
	}
	if err := problems.err(); err != nil {
		return nil, err
	}
	return rules, nil
}

// approvalRules is ApprovalRules over the Worker's settings, checking tool
// names against the static tool set when it is the whole tool set.
func (h *Handler) approvalRules(builtins any, builtinsOK bool) ([]approval.Rule, error) {
	if strings.TrimSpace(h.opts.Getenv(ApprovalRulesSetting)) == "" {
		return nil, nil // no rule: no need for the tool names (checkConfig asks on every request)
	}
	var known func(string) bool
	if builtinsOK {
		if names, complete := h.staticToolNames(builtins); complete {
			httpTools, _ := ParseHTTPTools(h.opts.Getenv(HTTPToolsSetting))
			for _, d := range httpTools {
				names[d.Name] = true
			}
			known = func(name string) bool { return names[name] }
		}
	}
	return ApprovalRules(h.opts.Getenv(ApprovalRulesSetting), known)
}

// ApprovalPolicy is the policy of one request's toolkit (or of a durable
// run's life): the Worker's rules, and grants of its own (a run's are
// read back from its journal).
func (h *Handler) ApprovalPolicy() (*approval.Policy, error) {
	rules, err := ApprovalRules(h.opts.Getenv(ApprovalRulesSetting), nil)
	if err != nil {
		return nil, err
	}
	return &approval.Policy{Rules: rules}, nil
}

// Approver checks an approver's token against APPROVER_TOKEN. It holds
// one token, or named tokens — "alice:<token>,bob:<token>", every item a
// name (letters, digits, . _ - @) and a token of 16 characters or more —
// so that the record names who approved. ok is false for a wrong or
// missing token; name is "" for the single unnamed token.
func Approver(setting, got string) (name string, ok bool) {
	setting = strings.TrimSpace(setting)
	if named := namedTokens(setting); named != nil {
		for _, n := range named {
			if subtle.ConstantTimeCompare([]byte(got), []byte(n[1])) == 1 {
				return n[0], true
			}
		}
		return "", false
	}
	return "", subtle.ConstantTimeCompare([]byte(got), []byte(setting)) == 1
}

// namedTokens reads "name:token,…", or nil when the setting is one token.
func namedTokens(setting string) [][2]string {
	var out [][2]string
	for _, item := range strings.Split(setting, ",") {
		name, token, ok := strings.Cut(strings.TrimSpace(item), ":")
		if !ok || len(token) < 16 || name == "" || len(name) > 64 || strings.IndexFunc(name, func(c rune) bool {
			return !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("._-@", c))
		}) >= 0 {
			return nil
		}
		out = append(out, [2]string{name, token})
	}
	return out
}

// chainDecisions chains a response's decisions into a record of their
// own, and returns them with its head: a stateless run's entries ride in
// its result (each response's verify on their own with approval.Verify).
func chainDecisions(entries []approval.Entry) ([]approval.Entry, string) {
	if len(entries) == 0 {
		return entries, ""
	}
	var log approval.Log
	for _, e := range entries {
		log.Add(e)
	}
	return log.Entries(), log.Head()
}

// answerFromCaller keeps what a caller's answer to a request of kind may
// say of itself out of the record: who approved and from where are the
// Worker's to say (from).
func answerFromCaller(a core.Answer, kind, from string) core.Answer {
	if kind != core.KindApproval && kind != core.KindOutcomeUnknown {
		return a
	}
	data := make(map[string]any, len(a.Data)+1)
	for k, v := range a.Data {
		if k != approval.ApproverKey && k != approval.FromKey {
			data[k] = v
		}
	}
	data[approval.FromKey] = from
	a.Data = data
	return a
}
