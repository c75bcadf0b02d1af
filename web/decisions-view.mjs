// decisions-view.mjs — the "Decisions" view of the demo (issue 32): a
// toolkit's record of who approved what, as a person reads it — one row per
// decision (when, the tool, what was decided, by which rule, grant or
// person, from where, the arguments asked for and run) — with Verify (the
// chain of hashes, against the head kept when the record was read) and
// Export (JSON Lines). Revocable grants get a Revoke button. Everything from
// the model or a tool is written with textContent. No DOM is touched on
// import.
//
//   const view = decisionsView({ document, toolkit, verify: tnx.verifyDecisions, conversation: () => convID });
//   section.append(view.element);
//   await view.refresh(); // after each run, or on onDecision

const WORDS = {
  allowed: "allowed by a rule",
  denied: "denied by a rule",
  approved: "approved",
  edited: "approved with edited arguments",
  declined: "declined",
  happened: "recorded as done",
  rerun: "run again",
  failed: "recorded as not done",
  revoked: "allowance revoked",
};

/** What an entry decided, in a person's words. */
export function decisionText(e) {
  let text = WORDS[e.decision] ?? e.decision;
  if (e.grantedBy) text = "approved by an earlier “allow for this conversation”";
  if (e.grant) text += e.grant === "any" ? ", and allowed for this conversation (any arguments)" : ", and allowed for this conversation (these arguments)";
  return text;
}

/** Who or what decided: the rule, the grant, the person. */
export function deciderText(e) {
  const parts = [];
  if (e.rule && (e.decision === "allowed" || e.decision === "denied")) parts.push(`rule “${e.rule}”`);
  else if (e.rule) parts.push(`asked by rule “${e.rule}”`);
  if (e.approver) parts.push(e.approver);
  if (e.from && e.from !== "rule") parts.push(`via ${e.from}`);
  return parts.join(" · ");
}

/**
 * @param {{document?: Document, toolkit: {decisions(): Promise<object[]>, decisionsHead(): Promise<string>,
 *   exportDecisions(): Promise<string>, grants?(c: string): Promise<object[]>, revoke?(c: string, id: string): Promise<object|null>},
 *   verify: (entries: object[], opts: {head: string}) => Promise<{ok: boolean, count: number, error?: string}>,
 *   conversation?: () => string}} options
 */
export function decisionsView({ document: doc = globalThis.document, toolkit, verify, conversation }) {
  const el = (tag, props = {}, ...children) => {
    const node = doc.createElement(tag);
    for (const [k, v] of Object.entries(props)) {
      if (k === "text") node.textContent = v;
      else node.setAttribute(k, v);
    }
    node.append(...children);
    return node;
  };
  // aria-live, not role=status: a page has its own status line (the demo's #busy).
  const status = el("p", { class: "tnx-decisions-status", "aria-live": "polite" });
  const table = el("table", { class: "tnx-decisions" });
  const head = el("thead", {}, el("tr", {}, ...["#", "When", "Tool", "Decision", "By", "Arguments"].map((h) => el("th", { scope: "col", text: h }))));
  const body = el("tbody");
  table.append(el("caption", { text: "Every decision about this page's tool calls, oldest first" }), head, body);
  const verifyButton = el("button", { type: "button", class: "tnx-decisions-verify", text: "Verify" });
  const exportButton = el("button", { type: "button", class: "tnx-decisions-export", text: "Export (JSON Lines)" });
  const element = el("div", { class: "tnx-decisions-view" }, el("div", { class: "tnx-decisions-actions" }, verifyButton, exportButton), status, table);
  let shown = { entries: [], head: "" };

  async function refresh() {
    const [entries, headHash, grants] = await Promise.all([toolkit.decisions(), toolkit.decisionsHead(),
      conversation && toolkit.grants ? toolkit.grants(conversation()) : []]);
    shown = { entries, head: headHash };
    const live = new Set(grants.map((g) => g.id));
    body.replaceChildren(...entries.map((e) => row(e, live)));
    status.textContent = entries.length ? `${entries.length} ${entries.length === 1 ? "decision" : "decisions"}; head ${headHash.slice(0, 12)}…` : "No decisions yet.";
    status.dataset.kind = "";
    return entries;
  }

  function row(e, live) {
    const args = el("td", { class: "tnx-decision-args" });
    if (e.asked !== undefined) args.append(el("code", { text: JSON.stringify(e.asked) }));
    if (e.ran !== undefined && JSON.stringify(e.ran) !== JSON.stringify(e.asked)) args.append(" → ", el("code", { text: JSON.stringify(e.ran) }));
    const decision = el("td", { class: "tnx-decision", text: decisionText(e) });
    if (e.reason) decision.append(el("br"), el("small", { text: `Reason: ${e.reason}` }));
    if (e.grant && live.has(e.request) && toolkit.revoke && conversation) {
      const revoke = el("button", { type: "button", class: "tnx-decision-revoke", text: "Revoke" });
      revoke.addEventListener("click", async () => {
        revoke.disabled = true;
        await toolkit.revoke(conversation(), e.request);
        await refresh();
      });
      decision.append(" ", revoke);
    }
    const tr = el("tr", { "data-seq": String(e.seq), "data-decision": e.decision },
      el("td", { text: String(e.seq) }),
      el("td", {}, el("time", { datetime: e.at, text: new Date(e.at).toLocaleTimeString() })),
      el("td", {}, el("code", { text: e.tool ?? "" })),
      decision,
      el("td", { class: "tnx-decider", text: deciderText(e) }),
      args);
    return tr;
  }

  verifyButton.addEventListener("click", async () => {
    const v = await verify(shown.entries, { head: shown.head });
    status.dataset.kind = v.ok ? "ok" : "error";
    status.textContent = v.ok
      ? `Verified: ${v.count} ${v.count === 1 ? "decision" : "decisions"}, every hash and link holds, and the record ends at its head.`
      : `Verification failed: ${v.error}`;
  });
  exportButton.addEventListener("click", async () => {
    const text = await toolkit.exportDecisions();
    const a = el("a", { download: "decisions.jsonl", href: URL.createObjectURL(new Blob([text], { type: "application/jsonl" })) });
    doc.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
  });
  return { element, refresh, entries: () => shown.entries };
}
