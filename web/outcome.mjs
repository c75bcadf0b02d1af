// outcome.mjs — one vocabulary for what happened to a tool call and what
// the agent waits for, shared by the demo page and <toolnexus-chat>: a
// declined call is "Declined" with the person's reason (not an error), an
// answered call says how it was answered, and the status line names what is
// open (an approval, a question, a form, a sign-in).
// No DOM here.

// The core's text for a declined call (core/toolphase.go declinedResult),
// for results that predate the `declined` flag.
const DECLINED = /^tool "[^"]*" was not run: declined: ([\s\S]*)$/;

/**
 * resultView says how to show a finished call ({output, isError, declined}
 * as in RunResult.toolCalls and tool_result events).
 * @returns {{kind: "declined"|"tool-result", who: string, text: string, isError: boolean}}
 */
export function resultView({ output = "", isError = false, declined = false } = {}) {
  const text = String(output ?? "");
  const m = text.match(DECLINED);
  if (declined || m) return { kind: "declined", who: "Declined", text: m ? m[1] : text, isError: false };
  return { kind: "tool-result", who: isError ? "Tool error" : "Tool result", text, isError: !!isError };
}

/**
 * answerLabel says how a person answered an approval, for the call's line;
 * for a question about a call whose outcome was lost (request of kind
 * "outcome_unknown"), what they recorded: it happened, it ran again, or it
 * was not done.
 */
export function answerLabel(answer, request = null) {
  if (request?.kind === "outcome_unknown" || answer?.data?.outcome) {
    if (!answer?.ok) return "Not done";
    return answer.data?.outcome === "rerun" ? "Ran again" : "Happened";
  }
  if (!answer?.ok) return "Declined";
  return answer.data?.args ? "Approved with edited arguments" : "Approved";
}

/**
 * decisionLabel is answerLabel for a decision a durable run recorded
 * (worker/runs: "approved", "edited", "declined", "happened", "rerun",
 * "failed"); "" for one it does not know.
 */
export function decisionLabel(decision) {
  return { approved: "Approved", edited: "Approved with edited arguments", declined: "Declined",
    happened: "Happened", rerun: "Ran again", failed: "Not done" }[decision] ?? "";
}

/**
 * linkBody is the body of POST <approveURL> (worker/runs) for a dialog's
 * answer: {ok, reason?, args?, grant?} for an approval; for a call whose outcome
 * was lost {ok: true, outcome: "happened", output}, {ok: true, outcome:
 * "rerun"}, or {ok: false, reason}.
 */
export function linkBody(answer) {
  const body = { ok: answer?.ok === true };
  if (!body.ok && answer?.reason) body.reason = String(answer.reason);
  if (body.ok && answer.data?.args) body.args = answer.data.args;
  // "Allow for this run": these arguments, or any (core/approval).
  if (body.ok && (answer.data?.grant === "args" || answer.data?.grant === "any")) body.grant = answer.data.grant;
  const outcome = answer?.data?.outcome;
  if (body.ok && (outcome === "happened" || outcome === "rerun")) {
    body.outcome = outcome;
    if (outcome === "happened") body.output = String(answer.data.output ?? "");
  }
  return body;
}

/** waitingStatus is the status line while a request waits for the person. */
export function waitingStatus(request) {
  const data = request?.data ?? {};
  if (request?.kind === "outcome_unknown") return "Waiting for you to say whether a call happened…";
  if (request?.kind === "approval" || typeof data.tool === "string") return "Waiting for your approval…";
  switch (request?.kind) {
    case "question": return "Waiting for your answer…";
    case "input": return "Waiting for you to fill in the form…";
    case "authorization": return "Waiting for you to sign in…";
  }
  return "Waiting for your decision…";
}

/**
 * decisionNote says, for a call's line, which decision of the record
 * (core/approval) let it run or stopped it — a rule's, or an earlier "allow
 * for this conversation" (granting: that decision's entry) — or that an
 * approval also allowed the tool for the rest of the conversation (where:
 * "conversation" or "run"); "" for a decision the line says already.
 */
export function decisionNote(entry, { granting = null, where = "conversation" } = {}) {
  const scope = (grant) => (grant === "any" ? "any arguments" : "these arguments");
  const when = (at) => {
    const t = Date.parse(at ?? "");
    return Number.isFinite(t) ? ` at ${new Date(t).toLocaleTimeString()}` : "";
  };
  switch (entry?.decision) {
    case "allowed": return `Allowed by the rule “${entry.rule ?? "unnamed"}”`;
    case "denied": return `Denied by the rule “${entry.rule ?? "unnamed"}”`;
    case "revoked": return `The allowance for ${entry.tool ?? "the tool"} is revoked: its next call asks again`;
  }
  if (entry?.grantedBy) {
    const by = granting ? ` (${scope(granting.grant)}, decided${when(granting.at)})` : "";
    return `Approved by your earlier “allow for this ${where}”${by}`;
  }
  if (entry?.grant) return `Allowed for this ${where}: later calls of ${entry.tool ?? "the tool"} with ${scope(entry.grant)} run without asking`;
  return "";
}
