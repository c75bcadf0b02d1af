// approve-page.mjs — the page behind a durable run's approveURL (issue 24),
// served by the Worker at /approve. It reads the pending request the link
// names (GET <link>&view=json), shows it in the same approval dialog as
// toolnexus.mjs (tool, exact arguments, the asking agent's path, where the
// tool runs; Approve / Edit / Decline with a reason) and posts the answer to
// the link. A link that was already answered says by which decision. When the
// Worker sets APPROVER_TOKEN the page asks for it first. Everything from the
// model is written with textContent.

import { ApprovalDialog } from "./approval-dialog.mjs";

const link = location.href;
const status = document.getElementById("status");
const say = (text, kind = "") => { status.textContent = text; status.dataset.kind = kind; };

function decisionText(d) {
  if (!d) return "answered";
  const what = d.decision === "declined" ? "declined" : d.decision === "edited" ? "approved with edited arguments" : "approved";
  return d.reason ? `${what} (reason: ${d.reason})` : what;
}

async function info() {
  const res = await fetch(link + "&view=json", { headers: { accept: "application/json" } });
  const body = await res.json().catch(() => ({}));
  return { res, body };
}

async function askToken() {
  const form = document.getElementById("token-form");
  form.hidden = false;
  document.getElementById("token").focus();
  return new Promise((resolve) => form.addEventListener("submit", (e) => {
    e.preventDefault();
    form.hidden = true;
    resolve(document.getElementById("token").value);
  }, { once: true }));
}

async function main() {
  const { res, body } = await info();
  if (!res.ok) return say(body?.error?.message ?? `This link does not work (HTTP ${res.status}).`, "error");
  if (body.answered) return say(`This request was already answered: ${decisionText(body.answered)}.`, "answered");
  if (body.status !== "pending" || !body.request) return say(`The run is ${body.status}: there is nothing to approve.`, "answered");
  const token = body.tokenRequired ? await askToken() : "";
  const dialog = new ApprovalDialog({ document, agent: body.where });
  const answer = await dialog.ask(body.request);
  say("Sending your answer…");
  const post = { ok: answer.ok };
  if (answer.reason) post.reason = answer.reason;
  if (answer.ok && answer.data?.args) post.args = answer.data.args;
  const sent = await fetch(link, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { "x-approver-token": token } : {}) },
    body: JSON.stringify(post),
  });
  const out = await sent.json().catch(() => ({}));
  if (sent.ok) return say(`Thank you: ${decisionText(out.decision)}. The run goes on.`, "done");
  if (sent.status === 409) return say(`This request was already answered: ${decisionText(out.decision)}.`, "answered");
  say(out?.error?.message ?? `The answer was refused (HTTP ${sent.status}).`, "error");
}

main().catch((err) => say(`Something went wrong: ${err?.message ?? err}`, "error"));
