// worker-mock.mjs — an open-ended scripted model for the Worker: the shared mock
// LLM (mock-llm.mjs) driven by one rule instead of a fixed list of turns, so it
// serves any number of runs in any order (for `./build.sh worker-dev` and the
// latency measurement).
//
//   node tests/worker-mock.mjs          serve on a free port until killed; prints the base URL
//   import { startWorkerMock } from "./worker-mock.mjs";
//
// The rule reads the last message of each request:
//   a tool result                    → the final answer "done: <tool output>"
//   a prompt that mentions "review order" → call task {agent: "billing", prompt: "refund order 42"}
//                                      (the support agent of an AGENTS team)
//   a prompt that mentions "refund"  → call refund {order: 42}
//   a prompt that mentions "slowly"  → a 12-word answer; streamed, one event every 150 ms
//                                      ("very slowly": 60 words, about 10 s)
//   a prompt that mentions "add"     → call add {a, b}: the first two numbers of
//                                      "add <a> and <b>", else {a: 2, b: 3}
//   a prompt that mentions "fail"    → HTTP 503
//   anything else                    → "hello from the mock model"
// and, whatever the last message, a conversation whose first prompt is
// "chain: <tool> <args JSON> | <tool> <args JSON> | …" (OpenAI style) calls
// those tools one per turn, in order, then answers "done: <last output>".

import { startMockLLM, toolResultsOf } from "./mock-llm.mjs";

const MAX_TURNS = 1_000_000;

// nextTurn decides the model's reply to a recorded request (either style).
export function nextTurn(request) {
  const messages = request.body?.messages ?? [];
  const last = messages[messages.length - 1] ?? {};
  const chain = chainTurn(messages);
  if (chain) return chain;
  const results = toolResultsOf({ body: { messages: [last] } });
  if (results.length) return { text: "done: " + results.map((r) => r.content).join("; ") };
  const prompt = typeof last.content === "string"
    ? last.content
    : (last.content ?? []).map((b) => b?.text ?? "").join("");
  if (/fail/i.test(prompt)) return { status: 503, error: "the mock model is overloaded" };
  if (/review order/i.test(prompt)) return { toolCalls: [{ name: "task", args: { agent: "billing", prompt: "refund order 42" } }] };
  if (/refund/i.test(prompt)) return { toolCalls: [{ name: "refund", args: { order: 42 } }] };
  if (/very slowly/i.test(prompt)) return { text: Array.from({ length: 60 }, (_, i) => `w${i}`).join(" "), chunkDelayMs: 150 };
  if (/slowly/i.test(prompt)) return { text: "one two three four five six seven eight nine ten eleven twelve", chunkDelayMs: 150 };
  const add = prompt.match(/add (\d+) and (\d+)/i);
  if (add) return { toolCalls: [{ name: "add", args: { a: Number(add[1]), b: Number(add[2]) } }] };
  if (/add/i.test(prompt)) return { toolCalls: [{ name: "add", args: { a: 2, b: 3 } }] };
  return { text: "hello from the mock model" };
}

// chainTurn is the reply of a "chain: …" conversation, or null.
function chainTurn(messages) {
  const first = messages.find((m) => m.role === "user");
  if (typeof first?.content !== "string" || !first.content.startsWith("chain: ")) return null;
  const steps = first.content.slice("chain: ".length).split(" | ");
  const done = messages.filter((m) => m.role === "tool");
  if (done.length >= steps.length) return { text: `done: ${done.at(-1)?.content ?? ""}` };
  const step = steps[done.length].trim();
  const space = step.indexOf(" ");
  return { toolCalls: [{ name: step.slice(0, space), args: JSON.parse(step.slice(space + 1)) }] };
}

// startWorkerMock starts the shared mock with the open-ended rule. delay(request),
// when given, is how many milliseconds to wait before answering a request.
export function startWorkerMock({ host = "127.0.0.1", delay } = {}) {
  const turn = delay
    ? async (request) => { await new Promise((r) => setTimeout(r, delay(request))); return nextTurn(request); }
    : nextTurn;
  const script = new Proxy([], {
    get: (target, key) => (typeof key === "string" && /^\d+$/.test(key) && Number(key) < MAX_TURNS ? turn : target[key]),
  });
  return startMockLLM({ script, host });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const mock = await startWorkerMock();
  console.log(mock.url);
  const stop = async () => { await mock.close(); process.exit(0); };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}
