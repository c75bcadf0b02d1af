// node.test.mjs — the same web/toolnexus.mjs the browser uses, loaded under Node 20
// from the built bundle, driving the real wasm against a scripted fetch and the
// shared mock LLM server.
//
//   ./build.sh && cd tests && timeout 300 node --test node.test.mjs
//
// The built bundle is read from $TOOLNEXUS_WEB, else $TOOLNEXUS_DIST/web, else ../dist/web.

import { before, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { startMockLLM, toolResultsOf } from "./mock-llm.mjs";

const here = fileURLToPath(new URL(".", import.meta.url));
const WEB = process.env.TOOLNEXUS_WEB ?? join(process.env.TOOLNEXUS_DIST ?? join(here, "..", "dist"), "web");
const T = { timeout: 30_000 };

let tnx; // the API from load()
let mod; // the module itself (plain-JS helpers)

before(async () => {
  assert.ok(existsSync(join(WEB, "toolnexus.wasm")), `no build in ${WEB}: run ./build.sh first`);
  mod = await import(pathToFileURL(join(WEB, "toolnexus.mjs")).href);
  tnx = await mod.load({ wasm: join(WEB, "toolnexus.wasm") });
});

// scripted returns an OpenAI-format fetch that plays turns in order and records
// every request body; turns are {text} or {call: [name, args]}.
function scripted(turns) {
  const seen = [];
  let i = 0;
  const fetch = async (url, init) => {
    const body = JSON.parse(typeof init.body === "string" ? init.body : new TextDecoder().decode(init.body));
    seen.push({ url: String(url), body, headers: init.headers });
    const t = turns[i++];
    if (!t) return new Response('{"error":{"message":"script exhausted"}}', { status: 500 });
    const message = t.call
      ? { role: "assistant", content: null, tool_calls: [{ id: `c${i}`, type: "function", function: { name: t.call[0], arguments: JSON.stringify(t.call[1]) } }] }
      : { role: "assistant", content: t.text };
    return Response.json({
      id: `r${i}`, object: "chat.completion", model: body.model,
      choices: [{ index: 0, message, finish_reason: t.call ? "tool_calls" : "stop" }],
      usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
    });
  };
  return { fetch, seen };
}

const lastToolContent = (body) => {
  const m = body.messages.filter((x) => x.role === "tool").at(-1);
  return typeof m?.content === "string" ? m.content : JSON.stringify(m?.content);
};

function refundTool(counter) {
  return mod.defineTool({
    name: "refund", description: "refund an order", needsApproval: true,
    inputSchema: { type: "object", properties: { order: { type: "string" } }, required: ["order"] },
    run: ({ order }) => { counter.n++; return `refunded order ${order}`; },
  });
}

test("load() is memoised and the helpers build plain Answers", T, async () => {
  assert.equal(await mod.load(), tnx);
  assert.equal(typeof tnx.version, "string");
  assert.deepEqual(mod.answerOutput("r1", "x"), { id: "r1", ok: true, data: { output: "x" } });
  assert.deepEqual(mod.answerDeclined("r1", "no"), { id: "r1", ok: false, reason: "no" });
  assert.deepEqual(mod.answerDeclined("r1"), { id: "r1", ok: false, reason: "declined" });
  assert.ok(!("data" in mod.answerDeclined("r1", "")));
});

test("load() accepts bytes, a file: URL and no argument (each in a fresh process)", T, async () => {
  const { execFile } = await import("node:child_process");
  const modURL = pathToFileURL(join(WEB, "toolnexus.mjs")).href;
  const wasmPath = join(WEB, "toolnexus.wasm");
  const forms = {
    bytes: `(await import("node:fs")).readFileSync(${JSON.stringify(wasmPath)})`,
    arrayBuffer: `new Uint8Array((await import("node:fs")).readFileSync(${JSON.stringify(wasmPath)})).buffer`,
    fileURL: `new URL(${JSON.stringify(pathToFileURL(wasmPath).href)})`,
    default: "undefined",
  };
  for (const [form, expr] of Object.entries(forms)) {
    const code = `const m = await import(${JSON.stringify(modURL)});
      const api = await m.load({ wasm: ${expr} });
      const tk = await api.createToolkit({ tools: [m.defineTool({ name: "t", run: () => "x" })] });
      console.log(JSON.stringify((await tk.tools()).map((t) => t.name)));`;
    const out = await new Promise((ok, fail) => execFile(process.execPath, ["--input-type=module", "-e", code],
      { timeout: 20_000 }, (err, stdout, stderr) => (err ? fail(new Error(`${form}: ${err.message} ${stderr}`)) : ok(stdout))));
    assert.equal(out.trim(), '["t"]', form);
  }
});

test("approve via waitFor: the tool runs once and the model sees its output", T, async () => {
  const ran = { n: 0 };
  const tk = await tnx.createToolkit({ tools: [refundTool(ran)] });
  const model = scripted([{ call: ["refund", { order: "42" }] }, { text: "all done" }]);
  const requests = [];
  const client = await tnx.createClient({
    baseURL: "https://scripted.invalid/v1", model: "exact-model-id", fetch: model.fetch,
    waitFor: async (req) => { requests.push(req); return { id: req.id, ok: true }; },
  });
  const result = await client.run("refund order 42", tk);
  assert.equal(result.status, "done");
  assert.equal(result.text, "all done");
  assert.equal(ran.n, 1);
  assert.equal(requests.length, 1);
  assert.equal(requests[0].kind, "approval");
  assert.equal(requests[0].data.tool, "refund");
  assert.deepEqual(requests[0].data.args, { order: "42" });
  assert.equal(model.seen.length, 2);
  assert.ok(model.seen.every((s) => s.body.model === "exact-model-id"), "model id sent verbatim");
  assert.ok(model.seen[0].url.endsWith("/v1/chat/completions"));
  assert.match(lastToolContent(model.seen[1].body), /refunded order 42/);
  assert.equal(result.toolCalls.length, 1);
  assert.equal(result.toolCalls[0].isError, false);
  await tk.close();
});

test("decline via waitFor (mock server): the model sees the reason and the run ends done", T, async () => {
  const mock = await startMockLLM({ script: [
    { toolCalls: [{ name: "refund", args: { order: "42" } }] },
    (req) => ({ text: `model saw: ${toolResultsOf(req).at(-1)?.content}` }),
  ] });
  try {
    const ran = { n: 0 };
    const tk = await tnx.createToolkit({ tools: [refundTool(ran)] });
    const client = await tnx.createClient({
      baseURL: `${mock.url}/v1`, model: "m", apiKey: "sk-mock",
      waitFor: (req) => mod.answerDeclined(req.id, "over the limit"),
    });
    const result = await client.run("refund order 42", tk);
    assert.equal(result.status, "done");
    assert.equal(ran.n, 0, "a declined tool never runs");
    assert.equal(mock.requests.length, 2);
    assert.match(toolResultsOf(mock.requests[1])[0].content, /over the limit/);
    assert.match(result.text, /model saw: .*declined.*over the limit/);
    assert.equal(mock.requests[0].headers.authorization, "Bearer sk-mock");
    assert.equal(result.toolCalls[0].isError, true);
  } finally {
    await mock.close();
  }
});

test("a waitFor that throws counts as a decline with its message", T, async () => {
  const ran = { n: 0 };
  const tk = await tnx.createToolkit({ tools: [refundTool(ran)] });
  const model = scripted([{ call: ["refund", { order: "1" }] }, { text: "ok" }]);
  const client = await tnx.createClient({
    baseURL: "https://scripted.invalid/v1", model: "m", fetch: model.fetch,
    waitFor: async () => { throw new Error("no approver available"); },
  });
  const result = await client.run("refund order 1", tk);
  assert.equal(result.status, "done");
  assert.equal(ran.n, 0);
  assert.match(lastToolContent(model.seen[1].body), /no approver available/);
});

test("a JS tool that throws becomes an error result and the run continues", T, async () => {
  const tk = await tnx.createToolkit({ tools: [mod.defineTool({
    name: "explode", description: "always fails",
    run: async () => { throw new Error("kaboom 123"); },
  })] });
  const model = scripted([{ call: ["explode", {}] }, { text: "recovered" }]);
  const client = await tnx.createClient({ baseURL: "https://scripted.invalid/v1", model: "m", fetch: model.fetch });
  const result = await client.run("go", tk);
  assert.equal(result.status, "done");
  assert.equal(result.text, "recovered");
  assert.equal(result.toolCalls[0].isError, true);
  assert.match(lastToolContent(model.seen[1].body), /kaboom 123/);
});

test("no waitFor: the run halts pending, runWithAnswer(answerDeclined) finishes it", T, async () => {
  const mock = await startMockLLM({ script: [
    { toolCalls: [{ name: "refund", args: { order: "9" } }] },
    (req) => ({ text: `resumed after: ${toolResultsOf(req).at(-1)?.content}` }),
  ] });
  try {
    const ran = { n: 0 };
    const tk = await tnx.createToolkit({ tools: [refundTool(ran)] });
    const client = await tnx.createClient({ baseURL: mock.url, model: "m" });
    const halted = await client.run("refund order 9", tk);
    assert.equal(halted.status, "pending");
    assert.equal(halted.pending.kind, "approval");
    assert.deepEqual(halted.pending.data.args, { order: "9" });
    assert.equal(mock.requests.length, 1);

    const done = await client.runWithAnswer(tk, halted.messages, halted.pending,
      mod.answerDeclined(halted.pending.id, "policy says no"));
    assert.equal(done.status, "done");
    assert.equal(ran.n, 0);
    assert.match(done.text, /resumed after: .*policy says no/);
    const userTurns = mock.requests[1].body.messages.filter((m) => m.role === "user");
    assert.equal(userTurns.length, 1, "resuming appends no new user turn");
  } finally {
    await mock.close();
  }
});

test("a relay tool halts for the host and resumes with answerOutput", T, async () => {
  const tk = await tnx.createToolkit({ tools: [mod.relayTool("lookup", "look something up on the host", {
    type: "object", properties: { q: { type: "string" } },
  })] });
  const listed = await tk.tools();
  assert.equal(listed[0].name, "lookup");
  const model = scripted([{ call: ["lookup", { q: "weather" }] }, { text: "done" }]);
  const client = await tnx.createClient({ baseURL: "https://scripted.invalid/v1", model: "m", fetch: model.fetch });
  const halted = await client.run("look it up", tk);
  assert.equal(halted.status, "pending");
  assert.equal(halted.pending.kind, "tool_call");
  assert.equal(halted.pending.data.calls[0].name, "lookup");
  assert.deepEqual(halted.pending.data.calls[0].input, { q: "weather" });
  const done = await client.runWithAnswer(tk, halted.messages, halted.pending, mod.answerOutput(halted.pending.id, "sunny, 21°C"));
  assert.equal(done.status, "done");
  assert.match(lastToolContent(model.seen[1].body), /sunny, 21°C/);
});

test("an http tool calls the mock's tool endpoint with variables filled in", T, async () => {
  const seen = [];
  const mock = await startMockLLM({
    script: [
      { toolCalls: [{ name: "weather", args: { city: "Oslo" } }] },
      (req) => ({ text: `weather said: ${toolResultsOf(req).at(-1)?.content}` }),
    ],
    tools: { weather: (args, { headers }) => { seen.push({ args, auth: headers.authorization }); return `sunny in ${args.city}`; } },
  });
  try {
    const tk = await tnx.createToolkit({
      tools: [mod.httpTool({ name: "weather", description: "weather for a city",
        inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
        http: { method: "POST", url: `${mock.url}/tools/weather`, headers: { authorization: "Bearer ${TOKEN}" } } })],
      variables: { TOKEN: "t0k3n" },
    });
    const client = await tnx.createClient({ baseURL: mock.url, model: "m" });
    const result = await client.run("weather in Oslo?", tk);
    assert.equal(result.status, "done");
    assert.equal(mock.toolExecutions.weather, 1);
    assert.deepEqual(seen, [{ args: { city: "Oslo" }, auth: "Bearer t0k3n" }]);
    assert.match(result.text, /weather said: .*sunny in Oslo/);
  } finally {
    await mock.close();
  }
});

test("Anthropic style against the mock server: approve and finish", T, async () => {
  const mock = await startMockLLM({ script: [
    { text: "Let me refund that.", toolCalls: [{ name: "refund", args: { order: "42" } }] },
    (req) => ({ text: `anthropic saw: ${toolResultsOf(req).at(-1)?.content}` }),
  ] });
  try {
    const ran = { n: 0 };
    const tk = await tnx.createToolkit({ tools: [refundTool(ran)] });
    const client = await tnx.createClient({
      baseURL: mock.url, style: "anthropic", model: "claude-test", apiKey: "ak-mock", maxTokens: 256,
      waitFor: (req) => ({ id: req.id, ok: true }),
    });
    const result = await client.run("refund order 42", tk);
    assert.equal(result.status, "done");
    assert.equal(ran.n, 1);
    assert.equal(mock.requests.length, 2);
    assert.ok(mock.requests.every((r) => r.style === "anthropic" && r.path === "/v1/messages"));
    assert.equal(mock.requests[0].headers["x-api-key"], "ak-mock");
    assert.equal(mock.requests[0].body.model, "claude-test");
    assert.match(result.text, /anthropic saw: refunded order 42/);
  } finally {
    await mock.close();
  }
});

test("history carries a conversation across runs", T, async () => {
  const mock = await startMockLLM({ script: [{ text: "first answer" }, { text: "second answer" }] });
  try {
    const tk = await tnx.createToolkit({ tools: [] });
    const client = await tnx.createClient({ baseURL: mock.url, model: "m" });
    const one = await client.run("first question", tk);
    const two = await client.run("second question", tk, { history: one.messages });
    assert.equal(two.text, "second answer");
    const said = JSON.stringify(mock.requests[1].body.messages);
    assert.ok(said.includes("first question") && said.includes("first answer") && said.includes("second question"));
  } finally {
    await mock.close();
  }
});

test("a rejected run throws an Error with the partial result; the next run works", T, async () => {
  const tk = await tnx.createToolkit({ tools: [] });
  const failing = await tnx.createClient({
    baseURL: "https://scripted.invalid/v1", model: "m",
    fetch: async () => { throw new TypeError("network down"); },
  });
  const err = await failing.run("hello", tk).then(() => null, (e) => e);
  assert.ok(err instanceof Error, "rejects with an Error");
  assert.match(err.message, /^toolnexus:/);
  assert.match(err.message, /network down/);
  assert.ok(err.result === undefined || Array.isArray(err.result.messages), "err.result is a RunResult when present");

  const http500 = await tnx.createClient({ baseURL: "https://scripted.invalid/v1", model: "m", fetch: scripted([]).fetch });
  await assert.rejects(http500.run("hello", tk), /toolnexus:.*500/);

  const ok = await tnx.createClient({ baseURL: "https://scripted.invalid/v1", model: "m", fetch: scripted([{ text: "alive" }]).fetch });
  assert.equal((await ok.run("hello again", tk)).text, "alive");
});

test("the demo model and tools drive a full refund conversation", T, async () => {
  const { demoModel } = await import(pathToFileURL(join(WEB, "demo-model.mjs")).href);
  const { demoTools } = await import(pathToFileURL(join(WEB, "demo-tools.mjs")).href);
  const tk = await tnx.createToolkit({ tools: demoTools() });
  const declined = await tnx.createClient({ ...demoModel(), waitFor: (r) => mod.answerDeclined(r.id, "not today") });
  assert.equal((await declined.run("refund order 42", tk)).text, 'I did not refund order 42: "not today".');
  const approved = await tnx.createClient({ ...demoModel(), waitFor: (r) => ({ id: r.id, ok: true }) });
  assert.match((await approved.run("refund 42", tk)).text, /refunded order 42/);
  assert.equal((await approved.run("what is 2+3", tk)).text, "2 + 3 = 5");
  assert.match((await approved.run("divide 1 by 0", tk)).text, /cannot divide by zero/);
});

test("outcome.mjs: one vocabulary for declines, answers and what is waiting", async () => {
  const { resultView, answerLabel, waitingStatus } = await import(pathToFileURL(join(WEB, "outcome.mjs")).href);
  assert.deepEqual(resultView({ output: 'tool "refund" was not run: declined: too late', isError: true, declined: true }),
    { kind: "declined", who: "Declined", text: "too late", isError: false });
  // Results saved before the declined flag existed read the same.
  assert.equal(resultView({ output: 'tool "x" was not run: declined: no', isError: true }).who, "Declined");
  assert.deepEqual(resultView({ output: "cannot divide by zero", isError: true }), { kind: "tool-result", who: "Tool error", text: "cannot divide by zero", isError: true });
  assert.equal(resultView({ output: "5" }).who, "Tool result");
  assert.deepEqual([answerLabel({ ok: true }), answerLabel({ ok: true, data: { args: {} } }), answerLabel({ ok: false })],
    ["Approved", "Approved with edited arguments", "Declined"]);
  assert.deepEqual([{ kind: "approval" }, { kind: "question" }, { kind: "input" }, { kind: "authorization" }, { kind: "other" }].map(waitingStatus),
    ["Waiting for your approval…", "Waiting for your answer…", "Waiting for you to fill in the form…", "Waiting for you to sign in…", "Waiting for your decision…"]);
});

test("demo-endpoint.mjs: an endpoint that can only fail is refused with a reason", async () => {
  const { endpointProblem } = await import(pathToFileURL(join(WEB, "demo-endpoint.mjs")).href);
  const field = (s) => endpointProblem(s)?.field ?? null;
  assert.equal(field({ kind: "demo" }), null);
  assert.equal(field({ kind: "openai", baseURL: "", model: "m" }), "baseURL");
  assert.equal(field({ kind: "openai", baseURL: "ftp://x/v1", model: "m" }), "baseURL");
  assert.equal(field({ kind: "openai", baseURL: "http://127.0.0.1:11434/v1", model: "" }), "model");
  assert.equal(field({ kind: "openai", baseURL: "https://api.openai.com/v1", model: "gpt-4o-mini" }), "apiKey");
  assert.equal(field({ kind: "anthropic", baseURL: "https://api.anthropic.com", model: "c", hasKey: true }), null);
  assert.equal(field({ kind: "openai", baseURL: "http://127.0.0.1:11434/v1", model: "llama" }), null, "a local server needs no key");
});
