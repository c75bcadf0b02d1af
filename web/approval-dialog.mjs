// approval-dialog.mjs — the in-page approval dialog behind approvalDialog().
//
// approvalDialog(options) returns a waitFor(request) => Promise<Answer> that shows
// one native <dialog> per request (queued, one at a time). Everything that comes
// from the model or a tool is written with textContent, never parsed as HTML.
// Importing this module touches no DOM, so it also loads under Node.

import { questionForm, QUESTION_CSS } from "./question-form.mjs";
import { elicitForm, isElicitRequest, ELICIT_CSS } from "./elicit-form.mjs";
import { argsEditor } from "./args-editor.mjs";
import { isOutcomeRequest, outcomeForm, wireOutcome, OUTCOME_CSS } from "./outcome-form.mjs";
import { adoptStyles } from "./styles.mjs";

// adoptStyles lives in styles.mjs; it is exported here too, where
// <toolnexus-chat> and pages have imported it from.
export { adoptStyles };

const STYLE_ID = "toolnexus-approval-style";
let seq = 0; // unique element ids per dialog

/**
 * An approval's arguments can be edited ("Edit"): an edit that is not JSON
 * or does not fit the tool's schema (request.data.schema) is shown in the
 * dialog, which stays open; a changed edit is answered as
 * {id, ok: true, data: {args}}, which core runs instead of the model's.
 * agent, when set, is how the dialog names where the agent's own tools run
 * (e.g. "the agent at agent.example.workers.dev").
 * allowFor ("conversation", "run"), when set, offers "Allow for this
 * conversation" (or run) beside Approve for a tool approval, with a choice
 * of these exact arguments or any arguments: the answer then carries
 * data.grant ("args" or "any"), and later calls of the tool there run
 * without asking (core/approval). A tool that always asks
 * (request.data.alwaysAsk) is never offered it.
 * @param {{document?: Document, parent?: Element, agent?: string, allowFor?: string}} [options]
 * @returns {(request: object) => Promise<{id: string, ok: boolean, reason?: string, data?: object}>}
 */
export function approvalDialog(options = {}) {
  let dlg = null;
  return (request, { signal, elsewhere } = {}) => {
    dlg ??= new ApprovalDialog(options);
    return dlg.ask(request, { signal, elsewhere });
  };
}

export class ApprovalDialog {
  #doc;
  #parent;
  #agent;
  #allowFor;
  #queue = Promise.resolve(); // serialises dialogs: a second request waits its turn
  // Requests asked and not yet answered (the open one included): core asks
  // for a turn's suspended calls at once, so several can arrive together.
  #waiting = 0;
  #queueNote = null; // the open dialog's "n more waiting" line

  constructor({ document: doc = globalThis.document, parent, agent, allowFor } = {}) {
    if (!doc) throw new Error("toolnexus: approvalDialog needs a document");
    this.#doc = doc;
    this.#parent = parent ?? null;
    this.#agent = agent ?? "";
    this.#allowFor = allowFor ? String(allowFor) : "";
  }

  /**
   * Show the request and resolve to the person's Answer. An aborted signal
   * (the run gave up waiting) closes the dialog as declined with reason "aborted".
   * A request of kind "outcome_unknown" (a call whose outcome was lost:
   * outcome-form.mjs) is answered as it happened, run it again, or it did
   * not happen; Escape, or "Decide later", resolves to {id, later: true},
   * not an Answer: nothing is recorded, and a journaled run halts with the
   * question kept. An aborted signal closes it the same way.
   * With elsewhere (a button label, e.g. "Answer on another device") the
   * dialog also offers to step aside: that button closes it without an
   * answer and resolves to {id, elsewhere: true} — not an Answer: the
   * request is still open, answered elsewhere or asked again.
   */
  ask(request, { signal, elsewhere } = {}) {
    this.#waiting++;
    this.#noteQueue();
    const next = this.#queue.then(() => this.#show(request ?? {}, signal, elsewhere));
    this.#queue = next.catch(() => {});
    next.finally(() => {
      this.#waiting--;
      this.#queueNote = null;
    }).catch(() => {});
    return next;
  }

  // #noteQueue tells the person how many requests wait behind the open one.
  #noteQueue() {
    const note = this.#queueNote;
    if (!note) return;
    const behind = this.#waiting - 1;
    note.textContent = behind > 0 ? `${behind} more ${behind === 1 ? "request" : "requests"} waiting after this one` : "";
    note.hidden = behind <= 0;
  }

  #show(request, signal, elsewhere) {
    const doc = this.#doc;
    // The dialog's sheet goes where the dialog goes: the document, or the
    // shadow root that holds the parent (a document's sheets do not reach in).
    const home = this.#parent?.getRootNode?.();
    adoptStyles(home?.nodeType === 11 && home.host ? home : doc, STYLE_ID, CSS + QUESTION_CSS + ELICIT_CSS + OUTCOME_CSS);
    const parts = build(doc, request, this.#agent, elsewhere, this.#allowFor);
    const { dialog, approve, decline, reason, countdown } = parts;
    this.#queueNote = doc.createElement("p");
    this.#queueNote.className = "tnx-queue";
    this.#queueNote.setAttribute("aria-live", "polite");
    dialog.insertBefore(this.#queueNote, countdown);
    this.#noteQueue();
    const opener = doc.activeElement;
    const expiresAt = parseTime(request.expiresAt);

    return new Promise((resolve) => {
      let done = false;
      let timer = 0;
      const later = () => finish({ id: request.id, later: true });
      const onAbort = () => (parts.outcome ? later() : declined("aborted"));
      const finish = (answer) => {
        if (done) return;
        done = true;
        clearInterval(timer);
        signal?.removeEventListener("abort", onAbort);
        if (dialog.open) dialog.close();
        dialog.remove();
        // Give focus back to whatever had it before the dialog opened.
        if (opener && opener.isConnected && typeof opener.focus === "function") opener.focus();
        resolve(answer);
      };
      const declined = (why) => finish({ id: request.id, ok: false, reason: why || "declined" });

      if (parts.outcome) {
        // Whether a lost call happened: no default answer, ever. Escape and
        // closing the dialog leave it for later; nothing is recorded.
        wireOutcome(parts.outcome, request, finish);
        dialog.addEventListener("cancel", (e) => { e.preventDefault(); later(); });
        dialog.addEventListener("keydown", (e) => {
          if (e.key === "Escape") { e.preventDefault(); later(); }
          else if (e.key === "Tab") trapTab(e, dialog);
        });
        dialog.addEventListener("close", later);
        if (signal?.aborted) return later();
        signal?.addEventListener("abort", onAbort);
        (this.#parent ?? doc.body).append(dialog);
        dialog.showModal();
        parts.outcome.buttons.later.focus(); // the choice that records nothing has focus first
        return;
      }

      // A question's answers ride in data.answers (question-form.mjs); an MCP
      // input request's values are the data itself (elicit-form.mjs).
      // grant (Allow for this conversation) adds data.grant to the approval.
      const approveWith = (grant) => {
        const withGrant = (answer) => (grant ? { ...answer, data: { ...answer.data, grant } } : answer);
        if (parts.editor) {
          const r = parts.editor.read();
          if (!r.ok) {
            parts.argsError.textContent = r.error;
            parts.editor.textarea.setAttribute("aria-invalid", "true");
            parts.editor.textarea.focus();
            return;
          }
          return finish(withGrant(r.edited ? { id: request.id, ok: true, data: { args: r.args } } : { id: request.id, ok: true }));
        }
        finish(withGrant({ id: request.id, ok: true }));
      };
      parts.allow?.button.addEventListener("click", () => approveWith(parts.allow.scope()));
      approve.addEventListener("click", () => {
        if (parts.editor || parts.allow) return approveWith("");
        if (parts.elicit) {
          const r = parts.elicit.read();
          if (!r.ok) {
            parts.elicitError.textContent = r.error;
            r.input?.focus();
            return;
          }
          return finish({ id: request.id, ok: true, data: r.data });
        }
        finish(parts.answers ? { id: request.id, ok: true, data: { answers: parts.answers() } } : { id: request.id, ok: true });
      });
      // Edit mode: the read-only arguments become a JSON textbox (Ctrl+Enter
      // approves); "Cancel edit" or Escape brings them back unchanged.
      const shownArgs = [...parts.argsBlock.childNodes];
      const cancelEdit = doc.createElement("button");
      cancelEdit.type = "button";
      cancelEdit.className = "tnx-edit-cancel";
      cancelEdit.textContent = "Cancel edit";
      const leaveEdit = () => {
        parts.editor = null;
        parts.argsError.textContent = "";
        parts.argsBlock.replaceChildren(...shownArgs);
        cancelEdit.replaceWith(parts.edit);
        approve.textContent = "Approve";
        parts.edit.focus();
      };
      cancelEdit.addEventListener("click", leaveEdit);
      parts.edit?.addEventListener("click", () => {
        parts.editor = argsEditor(doc, { args: request.data?.args, schema: request.data?.schema,
          id: `${parts.argsId}-edit`, describedBy: parts.argsError.id });
        parts.editor.textarea.addEventListener("keydown", (e) => {
          if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) { e.preventDefault(); approve.click(); }
        });
        parts.editor.textarea.addEventListener("input", () => {
          parts.argsError.textContent = "";
          parts.editor.textarea.removeAttribute("aria-invalid");
        });
        parts.argsBlock.replaceChildren(parts.editor.element, parts.argsError);
        parts.edit.replaceWith(cancelEdit);
        approve.textContent = "Approve edited";
        parts.editor.textarea.focus();
      });
      decline.addEventListener("click", () => declined(reason.value.trim()));
      parts.aside?.addEventListener("click", () => finish({ id: request.id, elsewhere: true }));
      reason.addEventListener("keydown", (e) => {
        if (e.key === "Enter") { e.preventDefault(); declined(reason.value.trim()); }
      });
      // Escape fires "cancel" on a modal dialog; keep it ours so it becomes a
      // decline — in edit mode it first leaves the edit.
      const escape = () => (parts.editor ? leaveEdit() : declined("cancelled"));
      dialog.addEventListener("cancel", (e) => { e.preventDefault(); escape(); });
      dialog.addEventListener("keydown", (e) => {
        if (e.key === "Escape") { e.preventDefault(); escape(); }
        else if (e.key === "Tab") trapTab(e, dialog);
      });
      dialog.addEventListener("close", () => declined("cancelled"));

      if (signal?.aborted) return declined("aborted");
      signal?.addEventListener("abort", onAbort);
      (this.#parent ?? doc.body).append(dialog);
      dialog.showModal();
      decline.focus(); // the safe choice has focus first

      countdown.hidden = expiresAt == null;
      if (expiresAt != null) {
        const tick = () => {
          const left = expiresAt - Date.now();
          if (left <= 0) return declined("expired");
          countdown.textContent = `Expires in ${timeLeft(left)}`;
        };
        tick();
        timer = setInterval(tick, 250);
      }
    });
  }
}

// trapTab keeps Tab and Shift+Tab cycling inside the dialog.
function trapTab(e, dialog) {
  const items = [...dialog.querySelectorAll("button, input, textarea, select, a[href], [tabindex]")]
    .filter((el) => !el.disabled && el.tabIndex >= 0);
  if (items.length === 0) return;
  const first = items[0];
  const last = items[items.length - 1];
  const active = dialog.ownerDocument.activeElement;
  if (e.shiftKey && (active === first || !dialog.contains(active))) {
    e.preventDefault();
    last.focus();
  } else if (!e.shiftKey && (active === last || !dialog.contains(active))) {
    e.preventDefault();
    first.focus();
  }
}

// timeLeft writes a duration as a person reads it: "23 h 59 min",
// "4 min 05 s", "42 s" (not "86385 s").
export function timeLeft(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (h > 0) return `${h} h ${m} min`;
  if (m > 0) return `${m} min ${String(s % 60).padStart(2, "0")} s`;
  return `${s} s`;
}

// parseTime accepts an RFC 3339 string or epoch milliseconds; anything else is "no expiry".
function parseTime(v) {
  if (v == null || v === "") return null;
  const t = typeof v === "number" ? v : Date.parse(v);
  if (!Number.isFinite(t) || t <= 0) return null;
  return t;
}

function isToolApproval(request) {
  return request.kind === "approval" || (request.data && typeof request.data.tool === "string");
}

const TITLES = {
  approval: "Approve tool call?",
  authorization: "Sign-in requested",
  question: "The agent has a question",
  input: "The agent needs input",
};

// INVISIBLE matches characters that change how the rest of a line reads
// without showing themselves: bidi controls (U+202E can make "exe.txt" read
// "txt.exe") and zero-width ones. visible() writes each as the \uXXXX escape,
// so the approver sees that it is there; inside the JSON of the arguments the
// escape denotes the very same value, so what is shown is still exactly what runs.
const INVISIBLE = /[\u061C\u200B\u200E\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/g;

function visible(s) {
  return String(s).replace(INVISIBLE, (c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0"));
}

// build creates the dialog's elements; all request text goes through textContent.
function build(doc, request, agent, elsewhere, allowFor) {
  const n = ++seq;
  const el = (tag, props = {}, ...children) => {
    const node = doc.createElement(tag);
    for (const [k, v] of Object.entries(props)) {
      if (k === "text") node.textContent = v;
      else node.setAttribute(k, v);
    }
    node.append(...children);
    return node;
  };

  if (isOutcomeRequest(request)) return buildOutcome(doc, request, el, n);
  const approval = isToolApproval(request);
  const form = !approval && request.kind === "question" ? questionForm(doc, request.data?.questions) : null;
  const elicit = !approval && !form && isElicitRequest(request)
    ? elicitForm(request.data.schema, { document: doc, idPrefix: `tnx-elicit-${n}` }) : null;
  const elicitError = el("p", { class: "tnx-elicit-error", role: "alert" });
  const titleId = `tnx-approval-title-${n}`;
  const descId = `tnx-approval-desc-${n}`;
  const dialog = el("dialog", { class: "tnx-approval", "aria-labelledby": titleId, "aria-describedby": descId });
  const title = el("h2", { id: titleId, text: TITLES[approval ? "approval" : request.kind] ?? "Confirm request" });
  const body = el("div", { id: descId, class: "tnx-body" });

  if (approval) {
    const data = request.data ?? {};
    body.append(el("p", { text: "The agent wants to run this tool. Check the exact arguments before you approve." }));
    // A sub-agent's request names the asking agent's path (core/agents):
    // "support › billing", above the tool it wants to run.
    const path = agentPath(data.path);
    body.append(el("dl", {},
      ...(path ? [el("dt", { text: "Agent" }), el("dd", { class: "tnx-path", text: visible(path) })] : []),
      el("dt", { text: "Tool" }), el("dd", {}, el("code", { class: "tnx-tool", text: visible(data.tool ?? "") })),
      el("dt", { text: "From" }), el("dd", { class: "tnx-source", text: visible(sourceText(data, agent)) })));
    if (request.prompt) body.append(el("p", { class: "tnx-prompt", text: visible(request.prompt) }));
  } else if (form) {
    body.append(form.element);
  } else if (elicit) {
    body.append(el("p", { class: "tnx-prompt", text: visible(request.prompt ?? "The agent needs some input.") }),
      elicit.element, elicitError);
  } else {
    body.append(el("p", { class: "tnx-prompt", text: visible(request.prompt ?? "The agent is waiting for your decision.") }));
    if (typeof request.url === "string" && /^https?:\/\//i.test(request.url)) {
      body.append(el("p", {}, "Address: ", el("code", { class: "tnx-url", text: visible(request.url) })));
    }
  }

  const args = approval ? request.data?.args : form || elicit ? undefined : request.data;
  const argsId = `tnx-approval-args-${n}`;
  const argsBlock = el("div", { class: "tnx-args-block" });
  if (args !== undefined && args !== null) {
    argsBlock.append(el("p", { id: argsId, class: "tnx-label", text: "Arguments" }),
      el("pre", { class: "tnx-args", role: "region", "aria-labelledby": argsId, tabindex: "0", text: pretty(args) }));
  }
  // Only a tool's arguments object can be edited.
  const editable = approval && args && typeof args === "object" && !Array.isArray(args);
  const edit = editable ? el("button", { type: "button", class: "tnx-edit", text: "Edit" }) : null;
  const argsError = el("p", { id: `${argsId}-error`, class: "tnx-args-error", role: "alert" });

  const reasonId = `tnx-approval-reason-${n}`;
  const hintId = `tnx-approval-hint-${n}`;
  const reason = el("input", { id: reasonId, type: "text", autocomplete: "off", "aria-describedby": hintId });
  const countdown = el("p", { class: "tnx-countdown", role: "timer", "aria-live": "off" });
  const decline = el("button", { type: "button", class: "tnx-decline", text: "Decline" });
  const approve = el("button", { type: "button", class: "tnx-approve", text: form ? "Answer" : elicit ? "Submit" : "Approve" });
  const aside = elsewhere ? el("button", { type: "button", class: "tnx-aside", text: String(elsewhere) }) : null;
  const allow = approval && allowFor && request.data?.alwaysAsk !== true ? allowGroup(el, n, allowFor, request.data?.tool) : null;

  dialog.append(title, body, argsBlock, ...(allow ? [allow.fieldset] : []),
    el("div", { class: "tnx-reason" },
      el("label", { for: reasonId, text: "Reason" }), reason,
      el("small", { id: hintId, text: "Optional. Sent to the agent if you decline." })),
    countdown,
    el("div", { class: "tnx-buttons" }, ...(aside ? [aside] : []), decline, ...(edit ? [edit] : []),
      ...(allow ? [allow.button] : []), approve));
  return { dialog, approve, decline, reason, countdown, answers: form?.answers, elicit, elicitError,
    edit, editor: null, argsBlock, argsId, argsError, aside, allow };
}

// allowGroup is "Allow for this conversation" (or run): the choice of
// these exact arguments or any arguments, and its button beside Approve.
function allowGroup(el, n, allowFor, tool) {
  const name = `tnx-allow-scope-${n}`;
  const args = el("input", { type: "radio", name, value: "args", checked: "", id: `${name}-args` });
  const any = el("input", { type: "radio", name, value: "any", id: `${name}-any` });
  const fieldset = el("fieldset", { class: "tnx-allow" },
    el("legend", { text: `Allow for this ${allowFor}` }),
    el("label", { for: args.id }, args, " with these exact arguments"),
    el("label", { for: any.id }, any, " with any arguments"),
    el("small", { text: `Later calls of ${visible(tool ?? "this tool")} in this ${allowFor} then run without asking; you can revoke it.` }));
  const button = el("button", { type: "button", class: "tnx-allow-button", text: `Allow for this ${allowFor}` });
  return { fieldset, button, scope: () => (any.checked ? "any" : "args") };
}

// buildOutcome makes the dialog of a request of kind "outcome_unknown":
// the question, the tool and the exact arguments that ran, and the three
// answers (outcome-form.mjs).
function buildOutcome(doc, request, el, n) {
  const data = request.data ?? {};
  const titleId = `tnx-approval-title-${n}`;
  const descId = `tnx-approval-desc-${n}`;
  const argsId = `tnx-approval-args-${n}`;
  const dialog = el("dialog", { class: "tnx-approval tnx-outcome", "aria-labelledby": titleId, "aria-describedby": descId });
  const form = outcomeForm(el, request, visible, n);
  const path = agentPath(data.path);
  const body = el("div", { id: descId, class: "tnx-body" }, ...form.body,
    el("dl", {},
      ...(path ? [el("dt", { text: "Agent" }), el("dd", { class: "tnx-path", text: visible(path) })] : []),
      el("dt", { text: "Tool" }), el("dd", {}, el("code", { class: "tnx-tool", text: visible(data.tool ?? "") }))));
  const args = data.args !== undefined && data.args !== null
    ? [el("p", { id: argsId, class: "tnx-label", text: "Arguments it ran with" }),
      el("pre", { class: "tnx-args", role: "region", "aria-labelledby": argsId, tabindex: "0", text: pretty(data.args) })]
    : [];
  const countdown = el("p", { class: "tnx-countdown", role: "timer", "aria-live": "off", hidden: "" });
  const { later, failed, rerun, happened } = form.buttons;
  dialog.append(el("h2", { id: titleId, text: "Did this tool call happen?" }), body, ...args, ...form.fields, countdown,
    el("div", { class: "tnx-buttons" }, ...[later, failed, rerun, happened].filter(Boolean)));
  return { dialog, countdown, outcome: form };
}

// agentPath joins data.path (["support", "billing"]) as "support › billing";
// anything but a non-empty array of strings is no path.
function agentPath(path) {
  if (!Array.isArray(path) || path.length === 0 || !path.every((p) => typeof p === "string")) return "";
  return path.join(" › ");
}

// sourceText says where a tool runs in a person's words, not core's
// source names ("js", "mcp", …).
function sourceText(data, agent) {
  switch (data.source) {
    case "js": return "this page";
    case "http": return "this page, as a web request";
    case "mcp": return data.server ? `the MCP server "${data.server}"` : "an MCP server";
    case "builtin": return agent ? `${agent} (its built-in tools)` : "the agent's built-in tools, in this page";
    case "skill": return "a skill of the agent";
    case "relay": return "the application that runs the agent";
    case "native": case "custom": case "": case undefined: return agent || "the agent itself";
  }
  return String(data.source);
}

// pretty shows arguments as indented JSON (a string that is JSON is shown
// parsed), with invisible characters escaped (see visible).
function pretty(v) {
  if (typeof v === "string") {
    try { return visible(JSON.stringify(JSON.parse(v), null, 2)); } catch { return visible(v); }
  }
  try { return visible(JSON.stringify(v, null, 2)); } catch { return visible(String(v)); }
}

// Static text only: nothing from a request ever reaches the stylesheet.
const CSS = `
.tnx-approval { --tnx-bg: #fff; --tnx-fg: #1b1f24; --tnx-muted: #57606a; --tnx-border: #d0d7de;
  --tnx-code: #f6f8fa; --tnx-accent: #1f6feb; --tnx-danger: #cf222e;
  color: var(--tnx-fg); background: var(--tnx-bg); border: 1px solid var(--tnx-border);
  border-radius: 12px; padding: 20px 24px; box-sizing: border-box;
  width: min(560px, calc(100vw - 32px)); max-width: calc(100vw - 32px);
  box-shadow: 0 12px 40px rgba(0,0,0,.25); font: 15px/1.45 system-ui, sans-serif; }
@media (max-width: 480px) { .tnx-approval { padding: 16px; } }
.tnx-approval::backdrop { background: rgba(15, 20, 25, .55); }
.tnx-approval h2 { margin: 0 0 8px; font-size: 1.2em; }
.tnx-approval p { margin: 6px 0; }
.tnx-approval dl { display: grid; grid-template-columns: max-content 1fr; gap: 4px 12px; margin: 10px 0; }
.tnx-approval dt { color: var(--tnx-muted); }
.tnx-approval dd { margin: 0; overflow-wrap: anywhere; }
.tnx-approval code, .tnx-approval pre { font: 13px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace; }
.tnx-approval .tnx-label { color: var(--tnx-muted); margin-top: 12px; }
.tnx-approval pre { background: var(--tnx-code); border: 1px solid var(--tnx-border); border-radius: 8px;
  padding: 10px 12px; margin: 4px 0 12px; max-height: 40vh; overflow: auto; white-space: pre-wrap;
  overflow-wrap: anywhere; }
.tnx-approval .tnx-args-editor { display: grid; gap: 4px; }
.tnx-approval textarea { font: 13px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace; color: inherit;
  background: var(--tnx-code); border: 1px solid var(--tnx-border); border-radius: 8px; padding: 10px 12px;
  resize: vertical; max-height: 40vh; tab-size: 2; }
.tnx-approval textarea[aria-invalid="true"] { border-color: var(--tnx-danger); }
.tnx-approval .tnx-args-error { color: var(--tnx-danger); margin: 4px 0 8px; }
.tnx-approval .tnx-args-error:empty { margin: 0; }
.tnx-approval .tnx-reason { display: grid; gap: 4px; margin: 8px 0; }
.tnx-approval .tnx-allow { border: 1px solid var(--tnx-border); border-radius: 8px; margin: 8px 0; padding: 6px 12px 8px;
  display: flex; flex-wrap: wrap; gap: 4px 16px; }
.tnx-approval .tnx-allow legend { color: var(--tnx-muted); padding: 0 4px; }
.tnx-approval .tnx-allow small { color: var(--tnx-muted); flex-basis: 100%; }
.tnx-approval .tnx-reason small { color: var(--tnx-muted); }
.tnx-approval input { font: inherit; color: inherit; background: var(--tnx-bg);
  border: 1px solid var(--tnx-border); border-radius: 6px; padding: 6px 8px; }
.tnx-approval .tnx-countdown { color: var(--tnx-muted); font-size: .9em; min-height: 1em; }
.tnx-approval .tnx-queue { color: var(--tnx-muted); font-size: .9em; margin: 0; }
.tnx-approval .tnx-buttons { display: flex; flex-wrap: wrap; justify-content: flex-end; gap: 8px; margin-top: 12px; }
.tnx-approval .tnx-aside { margin-right: auto; }
/* A narrow screen moves a button to the next row rather than breaking its label. */
.tnx-approval button { font: inherit; padding: 6px 16px; border-radius: 6px; cursor: pointer; white-space: nowrap;
  border: 1px solid var(--tnx-border); background: var(--tnx-code); color: var(--tnx-fg); }
@media (max-width: 480px) { .tnx-approval button { padding: 6px 12px; } }
.tnx-approval button.tnx-approve { background: var(--tnx-accent); border-color: var(--tnx-accent); color: #fff; }
.tnx-approval button.tnx-decline { color: var(--tnx-danger); }
.tnx-approval :focus-visible { outline: 2px solid var(--tnx-accent); outline-offset: 2px; }
@media (prefers-color-scheme: dark) {
  .tnx-approval { --tnx-bg: #161b22; --tnx-fg: #e6edf3; --tnx-muted: #9198a1; --tnx-border: #3d444d;
    --tnx-code: #0d1117; --tnx-accent: #1f6feb; --tnx-danger: #ff7b72; }
}
`;
