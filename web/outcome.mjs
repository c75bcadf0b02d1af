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

/** answerLabel says how a person answered an approval, for the call's line. */
export function answerLabel(answer) {
  if (!answer?.ok) return "Declined";
  return answer.data?.args ? "Approved with edited arguments" : "Approved";
}

/** waitingStatus is the status line while a request waits for the person. */
export function waitingStatus(request) {
  const data = request?.data ?? {};
  if (request?.kind === "approval" || typeof data.tool === "string") return "Waiting for your approval…";
  switch (request?.kind) {
    case "question": return "Waiting for your answer…";
    case "input": return "Waiting for you to fill in the form…";
    case "authorization": return "Waiting for you to sign in…";
  }
  return "Waiting for your decision…";
}
