// fake-model.mjs — the scripted OpenAI-style model every loop contender talks
// to, as a fetch function (no sockets). Turns 1–9 of a run call the tool
// `add` {"a":1,"b":2}; turn 10 answers "done". reset() starts a new run.
//
// With check on, every request body is parsed and checked (the transcript
// holds the history, the prompt and one "3" tool result per earlier turn):
// the harness turns it on for the warm-up runs only, so the timed runs pay
// nothing for it.

export const TURNS = 10;
export const PROMPT = "add 1 and 2, nine times";
export const TOOL_SCHEMA = {
  type: "object",
  properties: { a: { type: "number" }, b: { type: "number" } },
  required: ["a", "b"],
  additionalProperties: false,
};

// history builds n prior messages alternating user/assistant, 500 characters each.
export function history(n) {
  return Array.from({ length: n }, (_, i) => ({
    role: i % 2 === 0 ? "user" : "assistant",
    content: String.fromCharCode(97 + (i % 26)).repeat(500),
  }));
}

function reply(turn) {
  const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
  const message = turn < TURNS
    ? { role: "assistant", content: null, tool_calls: [{ id: `call_${turn}`, type: "function", function: { name: "add", arguments: '{"a":1,"b":2}' } }] }
    : { role: "assistant", content: "done" };
  const finish_reason = turn < TURNS ? "tool_calls" : "stop";
  return JSON.stringify({ id: `chatcmpl-${turn}`, object: "chat.completion", created: 1764633600, model: "fake-model", choices: [{ index: 0, message, finish_reason }], usage });
}

export function fakeModel({ historyLength = 0 } = {}) {
  const replies = Array.from({ length: TURNS }, (_, i) => reply(i + 1));
  const headers = { "content-type": "application/json" };
  const decoder = new TextDecoder();
  const state = { calls: 0, check: false, errors: [] };

  function verify(turn, body) {
    const text = typeof body === "string" ? body : decoder.decode(body);
    const msgs = JSON.parse(text).messages.filter((m) => m.role !== "system");
    const tools = msgs.filter((m) => m.role === "tool");
    const want = historyLength + 1 + 2 * (turn - 1);
    if (msgs.length !== want) state.errors.push(`turn ${turn}: ${msgs.length} messages, want ${want}`);
    if (tools.length !== turn - 1 || tools.some((m) => String(m.content) !== "3")) {
      state.errors.push(`turn ${turn}: tool results ${JSON.stringify(tools.map((m) => m.content))}`);
    }
    const first = msgs[0].content;
    const firstText = typeof first === "string" ? first : first?.map?.((c) => c.text ?? "").join("");
    if (historyLength && firstText !== history(1)[0].content) state.errors.push(`turn ${turn}: history missing`);
  }

  async function fetch(url, init = {}) {
    const turn = ++state.calls;
    if (turn > TURNS) return new Response('{"error":{"message":"script exhausted"}}', { status: 500, headers });
    if (state.check) verify(turn, init.body);
    return new Response(replies[turn - 1], { status: 200, headers });
  }

  return {
    fetch,
    get calls() { return state.calls; },
    set check(on) { state.check = on; },
    errors: state.errors,
    reset() { state.calls = 0; },
  };
}
