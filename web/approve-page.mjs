// approve-page.mjs — the page behind a durable run's approveURL (issue 24),
// served by the Worker at /approve. It reads the pending request the link
// names (GET <link>&view=json), shows it in the same approval dialog as
// toolnexus.mjs (tool, exact arguments, the asking agent's path, where the
// tool runs; Approve / Edit / Decline with a reason, and "Allow for this
// run" with these or any arguments: later calls of the tool in the run go
// through on that decision) and posts the answer to the link. A link that was already answered says by which decision; once
// answered, the page shows what was decided: the tool and the arguments
// that run. When the Worker sets APPROVER_TOKEN the page asks for it first.
// A question about a call whose outcome was lost (kind "outcome_unknown",
// issue 31: the Worker stopped while the approved call ran) is asked as
// what it is — did it happen? — and answered as it happened (with an
// optional result), run it again, or it did not happen (with a reason);
// "Decide later" (or Escape) records nothing, and the page offers the
// question again.
// Everything from the model is written with textContent; what the page says
// is written for the person holding the link, not in the API's words.

import { ApprovalDialog } from "./approval-dialog.mjs";
import { linkBody } from "./outcome.mjs";

const link = location.href;
const status = document.getElementById("status");
const say = (text, kind = "") => { status.textContent = text; status.dataset.kind = kind; };

// PROBLEMS says what a refused link means to the person who opened it
// (the API's codes: worker/runs/link.go).
const PROBLEMS = {
  link_malformed: "This approval link is incomplete. Open the whole link you were sent (some apps cut long links).",
  link_invalid: "This approval link does not work: it was changed or cut, or it is not from this service. Open the link exactly as you were sent it.",
  link_expired: "This approval link has expired: the request can no longer be answered. Ask for a new one if it still matters.",
  not_found: "This request is no longer kept: it was answered or expired long ago.",
  approver_token: "The approver token is missing or wrong: nothing was recorded. Reload the page to enter it again.",
  run_store: "The service could not read or record this request just now: nothing was recorded. Try again in a moment.",
};

function problem(res, body) {
  return PROBLEMS[body?.error?.code] ?? `This link does not work right now (HTTP ${res.status}). Try again later.`;
}

const DECISIONS = {
  declined: "declined", edited: "approved with edited arguments", approved: "approved",
  happened: "recorded as done", rerun: "to be run again", failed: "recorded as not done",
};

function decisionText(d) {
  if (!d) return "answered";
  let what = DECISIONS[d.decision] ?? "approved";
  if (d.grant) what += d.grant === "any" ? ", and allowed for the rest of the run with any arguments" : ", and allowed for the rest of the run with these arguments";
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

// showDecided shows what was decided under the status line: the tool and,
// unless declined, the arguments that run (the edited ones for an edit).
function showDecided(request, decision) {
  const data = request?.data ?? {};
  if (typeof data.tool !== "string") return;
  if (request.kind === "outcome_unknown") return showRecorded(data, decision);
  const declined = decision?.decision === "declined";
  const args = decision?.decision === "edited" && decision.args ? decision.args : data.args;
  const section = document.createElement("section");
  section.id = "decided";
  section.setAttribute("aria-label", "What was decided");
  const line = document.createElement("p");
  line.textContent = declined ? `Declined: the tool ${data.tool} does not run.` : `Approved: the tool ${data.tool} runs with these arguments.`;
  section.append(line);
  if (!declined) {
    const pre = document.createElement("pre");
    pre.textContent = JSON.stringify(args ?? {}, null, 2);
    section.append(pre);
  }
  if (decision?.grant) {
    // "Allow for this run": later calls of the tool go through on this decision.
    const grant = document.createElement("p");
    grant.className = "grant";
    grant.textContent = decision.grant === "any"
      ? `Later calls of ${data.tool} in this run, with any arguments, run without asking.`
      : `Later calls of ${data.tool} in this run with exactly these arguments run without asking.`;
    section.append(grant);
  }
  status.after(section);
}

// showRecorded shows what was recorded about a call whose outcome was lost.
function showRecorded(data, decision) {
  const d = decision?.decision;
  const section = document.createElement("section");
  section.id = "decided";
  section.setAttribute("aria-label", "What was recorded");
  const line = document.createElement("p");
  line.textContent = d === "rerun" ? `Recorded: the tool ${data.tool} runs again with the arguments it was approved with.`
    : d === "failed" ? `Recorded: the tool ${data.tool} did not happen. The agent is told so.`
      : `Recorded: the tool ${data.tool} happened. The agent reads the result you gave.`;
  section.append(line);
  if (d === "happened" && decision.output) {
    const pre = document.createElement("pre");
    pre.textContent = decision.output;
    section.append(pre);
  }
  status.after(section);
}

// askUntilAnswered shows the dialog until the person answers: "Decide
// later" closes it, records nothing, and leaves a button that opens it again.
async function askUntilAnswered(dialog, request) {
  for (;;) {
    const answer = await dialog.ask(request);
    if (!answer.later) return answer;
    say("Nothing was recorded. The run waits until you say whether the call happened; this link still works.", "later");
    const again = document.createElement("button");
    again.type = "button";
    again.textContent = "Answer now";
    status.after(again);
    again.focus();
    await new Promise((resolve) => again.addEventListener("click", resolve, { once: true }));
    again.remove();
  }
}

async function main() {
  const { res, body } = await info();
  if (!res.ok) return say(problem(res, body), "error");
  if (body.answered) return say(`This request was already answered: ${decisionText(body.answered)}.`, "answered");
  if (body.status !== "pending" || !body.request) return say(`The run is ${body.status}: there is nothing to approve.`, "answered");
  const token = body.tokenRequired ? await askToken() : "";
  if (body.request.kind === "outcome_unknown") {
    document.title = "Did a tool call happen?";
    const h1 = document.querySelector("h1");
    if (h1) h1.textContent = "Did a tool call happen?";
    say("");
  }
  // A durable run keeps "Allow for this run" (worker/runs: the link's "grant").
  const dialog = new ApprovalDialog({ document, agent: body.where, allowFor: "run" });
  const answer = await askUntilAnswered(dialog, body.request);
  say("Sending your answer…");
  const post = linkBody(answer);
  const sent = await fetch(link, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { "x-approver-token": token } : {}) },
    body: JSON.stringify(post),
  });
  const out = await sent.json().catch(() => ({}));
  if (sent.ok) {
    say(`Thank you: ${decisionText(out.decision)}. The run goes on.`, "done");
    return showDecided(body.request, out.decision);
  }
  if (sent.status === 409) return say(`This request was already answered: ${decisionText(out.decision)}.`, "answered");
  if (out?.error?.code === "invalid_args") return say(`The edited arguments were refused: ${out.error.message}`, "error");
  say(problem(sent, out), "error");
}

main().catch((err) => say(`Something went wrong: ${err?.message ?? err}`, "error"));
