// outcome-form.mjs — the dialog's form for a request of kind
// "outcome_unknown" (issue 31): an approved tool call was running when its
// run stopped (a crashed tab, a stopped Worker), so nobody knows whether it
// took effect, and running it again could do it twice. The person says:
//
//   It happened      {id, ok: true, data: {outcome: "happened", output}}  (output: what the model reads)
//   Run it again     {id, ok: true, data: {outcome: "rerun"}}
//   It did not happen {id, ok: false, reason}
//   Decide later     {id, later: true} — not an Answer: nothing is recorded,
//                    the run halts with the question kept (Escape does this)
//
// The choices shown are those request.data.choices lists (all three when
// it lists none). All request text goes through textContent. Importing this
// module touches no DOM.

/** Whether request asks whether a call happened. */
export function isOutcomeRequest(request) {
  return request?.kind === "outcome_unknown";
}

/** The question, in the words the dialog and the call's line use. */
export function outcomeQuestion(request) {
  const data = request?.data ?? {};
  if (typeof data.tool !== "string") return String(request?.prompt ?? "A tool call was running when the run stopped: did it happen?");
  let args = "";
  try { args = JSON.stringify(data.args ?? {}); } catch { args = String(data.args); }
  return `${data.tool} ${args} was running when the run stopped: did it happen?`;
}

/**
 * outcomeForm builds the form's fields and buttons (not yet wired).
 * el(tag, props, ...children) makes elements (textContent for props.text);
 * visible(s) escapes invisible characters; n makes ids unique.
 */
export function outcomeForm(el, request, visible, n) {
  const data = request.data ?? {};
  const choices = Array.isArray(data.choices) && data.choices.length ? new Set(data.choices.map(String)) : null;
  const offered = (c) => !choices || choices.has(c);
  const field = (id, label, hint) => {
    const input = el("input", { id, type: "text", autocomplete: "off", "aria-describedby": `${id}-hint` });
    return { input, element: el("div", { class: "tnx-reason" }, el("label", { for: id, text: label }), input,
      el("small", { id: `${id}-hint`, text: hint })) };
  };
  const output = field(`tnx-outcome-output-${n}`, "Result, if it happened",
    "Optional. The agent reads it as the tool's result.");
  const reason = field(`tnx-outcome-reason-${n}`, "Reason, if it did not happen",
    "Optional. The agent is told the call did not happen, and why.");
  const attempts = Number(data.attempts) > 1 ? [el("p", { class: "tnx-attempts",
    text: `It was started ${Number(data.attempts)} times without finishing.` })] : [];
  const body = [
    el("p", { class: "tnx-prompt tnx-question", text: visible(outcomeQuestion(request)) }),
    el("p", { text: "The run stopped while this approved call was running, so whether it took effect is not known. " +
      "Check, then record what happened: nothing runs until you do." }),
    ...attempts,
  ];
  const button = (cls, text) => el("button", { type: "button", class: cls, text });
  const buttons = {
    later: button("tnx-later", "Decide later"),
    failed: offered("failed") ? button("tnx-failed", "It did not happen") : null,
    rerun: offered("rerun") ? button("tnx-rerun", "Run it again") : null,
    happened: offered("happened") ? button("tnx-happened", "It happened") : null,
  };
  const fields = [...(buttons.happened ? [output.element] : []), ...(buttons.failed ? [reason.element] : [])];
  return { body, fields, buttons, output: output.input, reason: reason.input };
}

/**
 * wireOutcome answers through finish when a choice is made: Enter in the
 * result field is "It happened", in the reason field "It did not happen".
 */
export function wireOutcome(form, request, finish) {
  const { buttons, output, reason } = form;
  const id = request.id;
  const happened = () => finish({ id, ok: true, data: { outcome: "happened", output: output.value.trim() } });
  const failed = () => finish({ id, ok: false, reason: reason.value.trim() });
  buttons.later.addEventListener("click", () => finish({ id, later: true }));
  buttons.happened?.addEventListener("click", happened);
  buttons.rerun?.addEventListener("click", () => finish({ id, ok: true, data: { outcome: "rerun" } }));
  buttons.failed?.addEventListener("click", failed);
  const onEnter = (fn) => (e) => { if (e.key === "Enter") { e.preventDefault(); fn(); } };
  if (buttons.happened) output.addEventListener("keydown", onEnter(happened));
  if (buttons.failed) reason.addEventListener("keydown", onEnter(failed));
}

// Static text only.
export const OUTCOME_CSS = `
.tnx-approval .tnx-question { font-weight: 600; overflow-wrap: anywhere; }
.tnx-approval .tnx-attempts { color: var(--tnx-muted); }
.tnx-approval button.tnx-happened { background: var(--tnx-accent); border-color: var(--tnx-accent); color: #fff; }
.tnx-approval button.tnx-failed { color: var(--tnx-danger); }
.tnx-approval .tnx-later { margin-right: auto; }
`;
