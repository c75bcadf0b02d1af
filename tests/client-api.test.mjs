// client-api.test.mjs — the client features beyond run() through the real
// wasm under Node 20: streaming as an async iterator, AbortSignal
// cancellation, retries, in-process models, translate and metrics.
//
//   ./build.sh && cd tests && timeout 120 node --test client-api.test.mjs

import { before, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = fileURLToPath(new URL(".", import.meta.url));
const WEB = process.env.TOOLNEXUS_WEB ?? join(process.env.TOOLNEXUS_DIST ?? join(here, "..", "dist"), "web");
const T = { timeout: 30_000 };

let tnx;
let demoModel;
before(async () => {
  const mod = await import(pathToFileURL(join(WEB, "toolnexus.mjs")).href);
  ({ demoModel } = await import(pathToFileURL(join(WEB, "demo-model.mjs")).href));
  tnx = await mod.load({ wasm: join(WEB, "toolnexus.wasm") });
});

const addTool = () => tnx.defineTool({
  name: "add",
  description: "add a and b",
  inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
  run: ({ a, b }) => String(a + b),
});

// sse builds a streamed chat-completions reply from data payloads.
function sse(...chunks) {
  return new Response(chunks.map((c) => `data: ${typeof c === "string" ? c : JSON.stringify(c)}\n\n`).join(""),
    { headers: { "content-type": "text/event-stream" } });
}

test("stream yields text deltas as they arrive, tool events, and a final result", T, async () => {
  const tk = await tnx.createToolkit({ tools: [addTool()] });
  let turn = 0;
  const bodies = [];
  const fetch = async (url, init) => {
    bodies.push(JSON.parse(typeof init.body === "string" ? init.body : new TextDecoder().decode(init.body)));
    if (turn++ === 0) {
      return sse({ choices: [{ delta: { tool_calls: [{ index: 0, id: "c1", function: { name: "add", arguments: '{"a":2,' } }] } }] },
        { choices: [{ delta: { tool_calls: [{ index: 0, function: { arguments: '"b":3}' } }] }, finish_reason: "tool_calls" }] }, "[DONE]");
    }
    return sse({ choices: [{ delta: { content: "2 + 3 " } }] }, { choices: [{ delta: { content: "= 5" }, finish_reason: "stop" }] },
      { choices: [], usage: { prompt_tokens: 9, completion_tokens: 4, total_tokens: 13 } }, "[DONE]");
  };
  const client = await tnx.createClient({ baseURL: "https://model.test/v1", model: "m", fetch });
  const seen = [];
  let result;
  for await (const e of client.stream("what is 2+3", tk)) {
    seen.push(e.type === "text" ? `text:${e.delta}` : e.type);
    if (e.type === "tool_result") assert.equal(e.output, "5");
    if (e.type === "done") result = e.result;
  }
  assert.deepEqual(seen, ["usage", "tool_call", "tool_result", "text:2 + 3 ", "text:= 5", "usage", "done"]);
  assert.equal(result.text, "2 + 3 = 5");
  assert.equal(result.usage.totalTokens, 13);
  assert.equal(bodies[0].stream, true);
  assert.deepEqual(bodies[0].stream_options, { include_usage: true });
});

test("the demo model streams through the same fetch path", T, async () => {
  const tk = await tnx.createToolkit({ tools: [addTool()] });
  const client = await tnx.createClient(demoModel());
  let text = "";
  let deltas = 0;
  for await (const e of client.stream("what is 2+3", tk)) {
    if (e.type === "text") { text += e.delta; deltas++; }
  }
  assert.match(text, /5/);
  assert.ok(deltas > 1, `expected several deltas, got ${deltas}`);
});

test("an AbortSignal aborts the in-flight fetch, for run and for stream", T, async () => {
  const tk = await tnx.createToolkit({ tools: [] });
  let aborted = 0;
  const hanging = (url, init) => new Promise((_, reject) => {
    init.signal.addEventListener("abort", () => { aborted++; reject(new DOMException("aborted", "AbortError")); });
  });
  const client = await tnx.createClient({ baseURL: "https://model.test", model: "m", fetch: hanging });
  const ac = new AbortController();
  setTimeout(() => ac.abort(), 30);
  await assert.rejects(client.run("hi", tk, { signal: ac.signal }), (err) => {
    assert.match(err.message, /cancel/);
    assert.equal(err.result.status, "incomplete");
    assert.equal(err.result.messages.length, 1, "the user turn is kept");
    return true;
  });
  await assert.rejects(async () => {
    for await (const _ of client.stream("hi", tk, { signal: AbortSignal.timeout(30) })) { /* nothing arrives */ }
  }, /cancel/);
  assert.equal(aborted, 2, "each abort reached the fetch");
});

test("429 then 200: retried once, honouring Retry-After: 0", T, async () => {
  const tk = await tnx.createToolkit({ tools: [] });
  let calls = 0;
  const fetch = async () => (calls++ === 0
    ? new Response("slow down", { status: 429, headers: { "retry-after": "0" } })
    : Response.json({ choices: [{ message: { role: "assistant", content: "ok" } }] }));
  const client = await tnx.createClient({ baseURL: "https://model.test", model: "m", fetch, retryBaseMs: 60_000 });
  const t0 = performance.now();
  assert.equal((await client.run("hi", tk)).text, "ok");
  assert.equal(calls, 2);
  assert.ok(performance.now() - t0 < 5_000, "Retry-After: 0 must not wait for the backoff");
});

test("generate runs the model in the page; its failure is final", T, async () => {
  const tk = await tnx.createToolkit({ tools: [addTool()] });
  const requests = [];
  const client = await tnx.createClient({
    model: "local",
    generate: async (req) => {
      requests.push(req);
      return req.messages.length === 1
        ? { toolCalls: [{ name: "add", arguments: { a: 1, b: 2 } }] }
        : { text: `sum is ${req.messages.at(-1).content}` };
    },
  });
  assert.equal((await client.run("add 1 and 2", tk)).text, "sum is 3");
  assert.equal(requests[0].tools[0].function.name, "add");
  let tries = 0;
  const failing = await tnx.createClient({ generate: async () => { tries++; throw new Error("model crashed"); } });
  await assert.rejects(failing.run("x", tk), /model crashed/);
  assert.equal(tries, 1);
});

test("translate makes one call and returns OpenAI-shaped output", T, async () => {
  const bodies = [];
  const fetch = async (url, init) => {
    bodies.push({ url: String(url), body: JSON.parse(typeof init.body === "string" ? init.body : new TextDecoder().decode(init.body)) });
    return Response.json({ model: "claude-x", content: [{ type: "text", text: "hi" }, { type: "tool_use", id: "tu1", name: "add", input: { a: 1 } }], stop_reason: "tool_use", usage: { input_tokens: 3, output_tokens: 2 } });
  };
  const client = await tnx.createClient({ baseURL: "https://anthropic.test", style: "anthropic", model: "claude-x", apiKey: "k", fetch });
  const out = await client.translate({ messages: [{ role: "system", content: "brief" }, { role: "user", content: "hi" }] });
  assert.deepEqual(out.toolCalls, [{ id: "tu1", name: "add", arguments: '{"a":1}' }]);
  assert.equal(out.text, "hi");
  assert.equal(bodies.length, 1);
  assert.equal(bodies[0].url, "https://anthropic.test/v1/messages");
  assert.equal(bodies[0].body.system, "brief");
});

test("metrics count requests and tool calls in the Prometheus format", T, async () => {
  const tk = await tnx.createToolkit({ tools: [addTool()] });
  const client = await tnx.createClient(demoModel());
  await client.run("what is 2+3", tk);
  const text = await client.metrics();
  assert.match(text, /toolnexus_llm_requests_total\{model="toolnexus-demo",status="200"\} 2/);
  assert.match(text, /toolnexus_tool_calls_total\{tool="add",source="js",is_error="false"\} 1/);
});

test("cancelling a run closes a waitFor that never answers; the runtime stays usable", T, async () => {
  const tk = await tnx.createToolkit({ tools: [tnx.defineTool({ name: "refund", needsApproval: true, run: () => "refunded" })] });
  let withdrawn = false;
  const waitFor = (req, { signal }) => new Promise((_, reject) => {
    signal.addEventListener("abort", () => { withdrawn = true; reject(new Error("withdrawn")); });
  });
  let turn = 0;
  const fetch = async () => Response.json(turn++ === 0
    ? { choices: [{ message: { role: "assistant", tool_calls: [{ id: "c1", type: "function", function: { name: "refund", arguments: "{}" } }] } }] }
    : { choices: [{ message: { role: "assistant", content: "done" } }] });
  const client = await tnx.createClient({ baseURL: "https://model.test", model: "m", fetch, waitFor });
  await assert.rejects(client.run("refund", tk, { signal: AbortSignal.timeout(50) }), /cancel/);
  assert.ok(withdrawn, "waitFor saw its signal abort");
  const other = await tnx.createClient(demoModel());
  assert.match((await other.run("what is 2+3", await tnx.createToolkit({ tools: [addTool()] }))).text, /5/);
  await other.close();
  await assert.rejects(other.run("again", tk), /not a function|closed/);
});

test("a wait cancelled by the page leaves a durable halt that streamWithAnswer resumes", T, async () => {
  let ran = 0;
  const tk = await tnx.createToolkit({ tools: [tnx.defineTool({ name: "refund", needsApproval: true, run: ({ order }) => { ran++; return `refunded order ${order}`; } })] });
  let turn = 0;
  const fetch = async () => (turn++ === 0
    ? Response.json({ choices: [{ message: { role: "assistant", tool_calls: [{ id: "c1", type: "function", function: { name: "refund", arguments: '{"order":"9"}' } }] } }] })
    : sse({ choices: [{ delta: { content: "refunded " } }] }, { choices: [{ delta: { content: "order 9" }, finish_reason: "stop" }] }, "[DONE]"));
  const never = (req, { signal }) => new Promise((_, reject) => signal.addEventListener("abort", () => reject(new Error("page hidden"))));
  const client = await tnx.createClient({ baseURL: "https://model.test", model: "m", fetch, waitFor: never });
  const err = await client.run("refund order 9", tk, { signal: AbortSignal.timeout(50) }).then(() => null, (e) => e);
  assert.ok(err, "the cancelled run rejects");
  assert.equal(err.result.status, "pending");
  assert.equal(err.result.pending.data.tool, "refund");
  assert.equal(ran, 0);
  const deltas = [];
  let result;
  for await (const e of client.streamWithAnswer(tk, err.result.messages, err.result.pending, { id: err.result.pending.id, ok: true })) {
    if (e.type === "text") deltas.push(e.delta);
    if (e.type === "done") result = e.result;
  }
  assert.deepEqual(deltas, ["refunded ", "order 9"]);
  assert.equal(result.status, "done");
  assert.equal(ran, 1);
});

test("a conversation keeps its transcript in the wasm: a follow-up sends only the new prompt across", T, async () => {
  const tk = await tnx.createToolkit({ tools: [addTool()] });
  const bodies = [];
  let turn = 0;
  // Each prompt: one add call, then an answer that quotes the prompt.
  const fetch = async (url, init) => {
    const body = JSON.parse(typeof init.body === "string" ? init.body : new TextDecoder().decode(init.body));
    bodies.push(body);
    const last = body.messages.at(-1);
    const message = turn++ % 2 === 0
      ? { role: "assistant", content: null, tool_calls: [{ id: `c${turn}`, type: "function", function: { name: "add", arguments: '{"a":1,"b":2}' } }] }
      : { role: "assistant", content: `answered after ${last.role} ${last.content}` };
    return new Response(JSON.stringify({ choices: [{ message, finish_reason: message.tool_calls ? "tool_calls" : "stop" }], model: "m" }),
      { headers: { "content-type": "application/json" } });
  };
  const client = await tnx.createClient({ baseURL: "https://model.test/v1", model: "m", fetch });
  const history = [{ role: "user", content: "earlier" }, { role: "assistant", content: "noted" }];
  const conv = client.conversation({ history });
  const first = await conv.run("first", tk);
  assert.equal(first.status, "done");
  assert.equal(first.text, "answered after tool 3");
  assert.equal(first.messages, undefined, "a conversation's result leaves the transcript in the wasm");
  const second = await conv.run("second", tk);
  assert.equal(second.text, "answered after tool 3");
  // The model saw the history, the first run and the second prompt, in order.
  const sent = bodies.at(-1).messages.filter((m) => m.role !== "system");
  assert.deepEqual(sent.slice(0, 2), history);
  assert.deepEqual(sent.map((m) => m.role), ["user", "assistant", "user", "assistant", "tool", "assistant", "user", "assistant", "tool"]);
  assert.equal(sent[2].content, "first");
  assert.equal(sent[6].content, "second");
  const messages = await conv.messages();
  assert.equal(messages.length, 10);
  assert.deepEqual(messages.slice(0, 2), history);
  assert.equal(messages.at(-1).content, "answered after tool 3");
  // One run at a time; a closed conversation is refused.
  const running = conv.run("third", tk);
  await assert.rejects(conv.run("overlapping", tk), /already in progress/);
  await running;
  assert.equal((await conv.messages()).length, 14);
  await conv.close();
  await assert.rejects(conv.run("after close", tk));
});

test("a conversation halted on an approval resumes with runWithAnswer", T, async () => {
  const tk = await tnx.createToolkit({ tools: [tnx.defineTool({ ...addTool(), needsApproval: true })] });
  let turn = 0;
  const fetch = async () => {
    const message = turn++ === 0
      ? { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "add", arguments: '{"a":2,"b":2}' } }] }
      : { role: "assistant", content: "ok" };
    return new Response(JSON.stringify({ choices: [{ message }] }), { headers: { "content-type": "application/json" } });
  };
  const client = await tnx.createClient({ baseURL: "https://model.test/v1", model: "m", fetch });
  const conv = client.conversation();
  const halted = await conv.run("add 2 and 2", tk);
  assert.equal(halted.status, "pending");
  assert.equal(halted.pending.kind, "approval");
  const done = await conv.runWithAnswer(tk, tnx.answerOutput(halted.pending.id, "approved"));
  assert.equal(done.status, "done");
  const msgs = await conv.messages();
  assert.equal(msgs.find((m) => m.role === "tool").content, "4");
  await assert.rejects(conv.runWithAnswer(tk, tnx.answerOutput(halted.pending.id, "again")), /no pending request/);
});

test("fetch gets a signal only when something can cancel the run, and a JSON body as text", T, async () => {
  const tk = await tnx.createToolkit({ tools: [] });
  const seen = [];
  const fetch = async (url, init) => {
    seen.push({ signal: init.signal, body: init.body });
    return new Response(JSON.stringify({ choices: [{ message: { role: "assistant", content: "ok" } }] }),
      { headers: { "content-type": "application/json" } });
  };
  const client = await tnx.createClient({ baseURL: "https://model.test/v1", model: "m", fetch });
  await client.run("no signal", tk);
  await client.run("with a signal", tk, { signal: new AbortController().signal });
  const timed = await tnx.createClient({ baseURL: "https://model.test/v1", model: "m", fetch, timeoutMs: 60_000 });
  await timed.run("with timeoutMs", tk);
  assert.equal(seen[0].signal, undefined, "nothing can cancel the first run");
  assert.ok(seen[1].signal instanceof AbortSignal);
  assert.ok(seen[2].signal instanceof AbortSignal);
  assert.equal(typeof seen[0].body, "string");
  assert.equal(JSON.parse(seen[0].body).messages.at(-1).content, "no signal");
});
