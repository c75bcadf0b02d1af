// worker-parity.test.mjs — the Worker's client-parity endpoints end to end on workerd
// (Miniflare) against a scripted mock model on 127.0.0.1 (issue 6). Run after
// ./build.sh worker:
//
//   cd tests && timeout 300 node --test --test-force-exit worker-parity.test.mjs
//
//   POST /v1/run and /v1/resume with "stream": true  server-sent events, delivered as
//                                                     they are produced
//   "conversation" on /v1/run                         transcripts kept in CONVERSATIONS_KV
//   POST /v1/chat/completions                         the official `openai` npm client
//                                                     talking to an Anthropic-style model
//   GET /metrics                                      per-instance text
//
// Every response, and everything the Workers log, is checked for the keys and secrets.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import OpenAI from "openai";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { startMockLLM, toolResultsOf } from "./mock-llm.mjs";
import { startWorker } from "./worker-harness.mjs";

const KEY = "sk-parity-provider-key-4c1e77";
const SECRET = "parity-state-secret-0123456789abcdef";
const TOKEN = "parity-api-token-93be0a";
const SECRETS = [KEY, SECRET, TOKEN];
const AUTH = { authorization: `Bearer ${TOKEN}` };
const GATE_MS = 10_000;

// The model's rule, by the last message of each request (either style):
//   a tool result   → "done: <output>"; when the first user prompt says "slow", only
//                     after the test opened the gate (or GATE_MS passed)
//   "fail"          → HTTP 503
//   "refund"        → call refund {order: 42}
//   "add"           → call add {a: 2, b: 3}
//   anything else   → "heard: <prompt>"
let gate = null;
function openGate() { gate?.open("client"); }
function newGate() {
  let open;
  const p = new Promise((resolve) => { open = resolve; });
  const timer = setTimeout(() => open("timeout"), GATE_MS);
  gate = { promise: p, open: (who) => { clearTimeout(timer); open(who); }, openedBy: null };
  p.then((who) => { gate.openedBy = who; });
  return gate;
}

function textOf(m) {
  if (typeof m?.content === "string") return m.content;
  return (m?.content ?? []).map((b) => b?.text ?? "").join("");
}

async function rule(request) {
  const messages = request.body?.messages ?? [];
  const last = messages[messages.length - 1] ?? {};
  const results = toolResultsOf({ body: { messages: [last] } });
  if (results.length) {
    const first = messages.find((m) => m.role === "user" && textOf(m));
    if (/slow/.test(textOf(first)) && gate) await gate.promise;
    return { text: "done: " + results.map((r) => r.content).join("; ") };
  }
  const prompt = textOf(last);
  if (/fail/i.test(prompt)) return { status: 503, error: "the mock model is overloaded" };
  if (/refund/i.test(prompt)) return { toolCalls: [{ name: "refund", args: { order: 42 } }] };
  if (/add/i.test(prompt)) return { toolCalls: [{ name: "add", args: { a: 2, b: 3 } }] };
  return { text: "heard: " + prompt };
}

let mock;
const workers = {};


before(async () => {
  mock = await startMockLLM({ script: new Proxy([], { get: (t, k) => (typeof k === "string" && /^\d+$/.test(k) ? rule : t[k]) }) });
  const base = { LLM_BASE_URL: `${mock.url}/v1`, LLM_MODEL: "mock-model", LLM_API_KEY: KEY, STATE_SECRET: SECRET, API_TOKEN: TOKEN, LLM_RETRIES: "0" };
  [workers.main, workers.nokv, workers.anthropic] = await Promise.all([
    startWorker(base, { kv: ["CONVERSATIONS_KV"] }),
    startWorker(base),
    startWorker({ ...base, LLM_BASE_URL: mock.url, LLM_STYLE: "anthropic", LLM_MODEL: "claude-mock", MODELS: "claude-mock, claude-mock-large" }),
  ]);
});

after(async () => {
  for (const w of Object.values(workers)) {
    const logs = w.output.join("");
    for (const s of SECRETS) assert.ok(!logs.includes(s), `a Worker logged a secret: ${logs}`);
    await w.dispose().catch(() => {});
  }
  await mock?.close();
});

function noSecrets(where, text) {
  for (const s of SECRETS) assert.ok(!text.includes(s), `${where} returned a secret: ${text}`);
}

async function call(worker, method, path, body, headers = AUTH) {
  const init = { method, headers: { ...headers }, signal: AbortSignal.timeout(30_000) };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers["content-type"] = "application/json";
  }
  const res = await fetch(new URL(path, workers[worker].url), init);
  const text = await res.text();
  noSecrets(`${method} ${path}`, text + JSON.stringify([...res.headers]));
  let json;
  try { json = JSON.parse(text); } catch { json = undefined; }
  return { status: res.status, headers: res.headers, text, json };
}

// stream posts body and reads the SSE response as it arrives. onEvent(event, index)
// runs as each event is parsed. Returns {status, headers, events: [{event, data}]}.
async function stream(worker, path, body, onEvent = () => {}) {
  const res = await fetch(new URL(path, workers[worker].url), {
    method: "POST",
    headers: { ...AUTH, "content-type": "application/json" },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  const events = [];
  if (!res.headers.get("content-type")?.startsWith("text/event-stream")) {
    return { status: res.status, headers: res.headers, events, text: await res.text() };
  }
  const decoder = new TextDecoder();
  let buf = "";
  let all = "";
  for await (const chunk of res.body) {
    const s = decoder.decode(chunk, { stream: true });
    buf += s;
    all += s;
    let i;
    while ((i = buf.indexOf("\n\n")) >= 0) {
      const block = buf.slice(0, i);
      buf = buf.slice(i + 2);
      let event = "message";
      const data = [];
      for (const line of block.split("\n")) {
        if (line.startsWith("event: ")) event = line.slice(7);
        else if (line.startsWith("data: ")) data.push(line.slice(6));
      }
      if (!data.length) continue; // a comment
      const e = { event, data: JSON.parse(data.join("\n")) };
      events.push(e);
      onEvent(e, events.length - 1);
    }
  }
  noSecrets(`POST ${path} (stream)`, all);
  assert.equal(buf.trim(), "", "the stream ended mid-event");
  return { status: res.status, headers: res.headers, events };
}

const types = (events) => events.map((e) => e.event);

test("stream: the first event reaches the client before the model's last turn is produced", async () => {
  const g = newGate();
  let firstAt = null;
  const res = await stream("main", "/v1/run", { prompt: "slow: add 2 and 3", stream: true }, (e, i) => {
    if (i === 0) { firstAt = Date.now(); openGate(); }
  });
  assert.equal(res.status, 200);
  assert.equal(g.openedBy, "client", "the model's second turn waited for the gate until it timed out: the Worker buffered the stream");
  assert.ok(firstAt !== null);
  const t = types(res.events);
  assert.deepEqual(t.filter((x) => x !== "text" && x !== "usage"), ["tool_call", "tool_result", "done"], t.join(","));
  assert.equal(t.filter((x) => x === "usage").length, 2, t.join(","));
  assert.ok(t.includes("text"), "text deltas stream");
  const tc = res.events.find((e) => e.event === "tool_call").data;
  assert.equal(tc.name, "add");
  assert.deepEqual(JSON.parse(tc.args), { a: 2, b: 3 });
  assert.equal(res.events.find((e) => e.event === "tool_result").data.output, "5");
  const deltas = res.events.filter((e) => e.event === "text").map((e) => e.data.delta).join("");
  assert.equal(deltas, "done: 5");
  const done = res.events.at(-1).data;
  // The done event is the body the non-streaming route answers.
  const plain = await call("main", "POST", "/v1/run", { prompt: "add 2 and 3" });
  assert.equal(plain.status, 200, plain.text);
  assert.deepEqual(Object.keys(done).sort(), Object.keys(plain.json).sort());
  for (const k of ["text", "status", "turns", "toolCallCount", "model"]) assert.deepEqual(done[k], plain.json[k], k);
  assert.deepEqual(done.toolCalls.map((c) => [c.name, c.output]), [["add", "5"]]);
});

test("stream: pending carries the state token; a streamed resume finishes the run", async () => {
  const res = await stream("main", "/v1/run", { prompt: "please refund order 42", stream: true });
  assert.equal(res.status, 200);
  assert.deepEqual(types(res.events).filter((x) => x !== "usage" && x !== "text"), ["tool_call", "pending", "done"]);
  const pending = res.events.find((e) => e.event === "pending").data.request;
  assert.equal(pending.kind, "approval");
  const done = res.events.at(-1).data;
  assert.equal(done.status, "pending");
  assert.match(done.state, /^tn1\./);
  assert.equal(done.pending.id, pending.id);
  assert.ok(done.stateExpiresAt);

  const resumed = await stream("main", "/v1/resume", { state: done.state, answer: { id: pending.id, ok: true }, stream: true });
  assert.equal(resumed.status, 200);
  assert.deepEqual(types(resumed.events).filter((x) => x !== "usage" && x !== "text"), ["tool_result", "done"]);
  assert.equal(resumed.events.find((e) => e.event === "tool_result").data.output, "refunded order 42");
  assert.equal(resumed.events.at(-1).data.status, "done");
  assert.equal(resumed.events.at(-1).data.text, "done: refunded order 42");
});

test("stream: a failing model ends with an error event; bad input is still plain JSON", async () => {
  const res = await stream("main", "/v1/run", { prompt: "fail now", stream: true });
  assert.equal(res.status, 200);
  const last = res.events.at(-1);
  assert.equal(last.event, "error");
  assert.equal(last.data.error.code, "upstream_error");
  assert.equal(last.data.error.upstreamStatus, 503);

  const bad = await stream("main", "/v1/run", { stream: true });
  assert.equal(bad.status, 400);
  assert.equal(JSON.parse(bad.text).error.code, "missing_field");
  const unauth = await call("main", "POST", "/v1/run", { prompt: "hi", stream: true }, {});
  assert.equal(unauth.status, 401);
});

test("conversation: the second request's model call contains the first exchange (KV)", async () => {
  const id = `conv-${Date.now()}`;
  const first = await call("main", "POST", "/v1/run", { prompt: "my name is Ada", conversation: id });
  assert.equal(first.status, 200, first.text);
  assert.equal(first.json.text, "heard: my name is Ada");
  const from = mock.requests.length;
  const second = await call("main", "POST", "/v1/run", { prompt: "what is my name?", conversation: id });
  assert.equal(second.status, 200, second.text);
  const sent = mock.requests.slice(from);
  assert.equal(sent.length, 1);
  const msgs = sent[0].body.messages.map((m) => [m.role, textOf(m)]);
  assert.deepEqual(msgs.filter(([r]) => r !== "system"), [
    ["user", "my name is Ada"],
    ["assistant", "heard: my name is Ada"],
    ["user", "what is my name?"],
  ]);
  // A streamed turn of the same conversation sees both exchanges and is saved too.
  const from2 = mock.requests.length;
  const third = await stream("main", "/v1/run", { prompt: "and again?", conversation: id, stream: true });
  assert.equal(third.events.at(-1).event, "done", JSON.stringify(third.events.at(-1)));
  assert.equal(mock.requests[from2].body.messages.filter((m) => m.role === "user").length, 3);
  const from3 = mock.requests.length;
  await call("main", "POST", "/v1/run", { prompt: "last one", conversation: id });
  assert.equal(mock.requests[from3].body.messages.filter((m) => m.role === "user").length, 4);
  // Another id starts empty.
  const from4 = mock.requests.length;
  await call("main", "POST", "/v1/run", { prompt: "who am I?", conversation: id + "-other" });
  assert.equal(mock.requests[from4].body.messages.filter((m) => m.role !== "system").length, 1);
});

test("conversation: refused with 400 without the binding, a bad id, or with messages", async () => {
  const nokv = await call("nokv", "POST", "/v1/run", { prompt: "hi", conversation: "c1" });
  assert.equal(nokv.status, 400);
  assert.equal(nokv.json.error.code, "conversations_unavailable");
  assert.match(nokv.json.error.message, /CONVERSATIONS_KV/);
  const badID = await call("main", "POST", "/v1/run", { prompt: "hi", conversation: "a b/c" });
  assert.equal(badID.status, 400);
  assert.equal(badID.json.error.code, "invalid_field");
  const both = await call("main", "POST", "/v1/run", { prompt: "hi", conversation: "c1", messages: [] });
  assert.equal(both.status, 200, "an empty messages list is no history");
  const both2 = await call("main", "POST", "/v1/run", { prompt: "hi", conversation: "c1", messages: [{ role: "user", content: "x" }] });
  assert.equal(both2.status, 400);
  assert.equal(both2.json.error.code, "invalid_field");
});

test("chat completions: the official openai client gets a translated Anthropic answer and tool calls", async () => {
  const client = new OpenAI({ apiKey: TOKEN, baseURL: new URL("/v1", workers.anthropic.url).href, maxRetries: 0, timeout: 30_000 });
  const tools = [{ type: "function", function: { name: "add", description: "Add two numbers.", parameters: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] } } }];
  const from = mock.requests.length;
  const first = await client.chat.completions.create({
    model: "claude-mock",
    messages: [{ role: "system", content: "Be brief." }, { role: "user", content: "add 2 and 3" }],
    tools,
  });
  assert.equal(first.object, "chat.completion");
  assert.match(first.id, /^chatcmpl-/);
  assert.equal(first.model, "claude-mock");
  assert.equal(first.choices.length, 1);
  assert.equal(first.choices[0].finish_reason, "tool_calls");
  const calls = first.choices[0].message.tool_calls;
  assert.equal(calls.length, 1);
  assert.equal(calls[0].type, "function");
  assert.equal(calls[0].function.name, "add");
  assert.deepEqual(JSON.parse(calls[0].function.arguments), { a: 2, b: 3 });
  assert.ok(first.usage.prompt_tokens > 0 && first.usage.completion_tokens > 0);
  assert.equal(first.usage.total_tokens, first.usage.prompt_tokens + first.usage.completion_tokens);
  // What reached the model: the Anthropic messages API, system hoisted, tools converted.
  const sent = mock.requests[from];
  assert.equal(sent.style, "anthropic");
  assert.equal(sent.body.system, "Be brief.");
  assert.equal(sent.body.tools[0].name, "add");
  assert.equal(sent.body.tools[0].input_schema.type, "object");
  assert.equal(sent.headers["x-api-key"], KEY);

  const second = await client.chat.completions.create({
    model: "claude-mock",
    messages: [
      { role: "user", content: "add 2 and 3" },
      first.choices[0].message,
      { role: "tool", tool_call_id: calls[0].id, content: "5" },
    ],
    tools,
  });
  assert.equal(second.choices[0].finish_reason, "stop");
  assert.equal(second.choices[0].message.role, "assistant");
  assert.equal(second.choices[0].message.content, "done: 5");
  assert.equal(second.choices[0].message.tool_calls, undefined);
  const resent = mock.requests.at(-1);
  assert.deepEqual(resent.body.messages.map((m) => m.role), ["user", "assistant", "user"]);
  assert.equal(toolResultsOf(resent)[0].content, "5");

  // API_TOKEN applies: a wrong key is a 401 the client reports as such.
  const wrong = new OpenAI({ apiKey: "not-the-token", baseURL: new URL("/v1", workers.anthropic.url).href, maxRetries: 0, timeout: 30_000 });
  await assert.rejects(wrong.chat.completions.create({ model: "claude-mock", messages: [{ role: "user", content: "hi" }] }), (err) => err.status === 401);
});

// The official client's version, as installed (tests/package.json pins it).
const OPENAI_VERSION = JSON.parse(readFileSync(new URL("./node_modules/openai/package.json", import.meta.url), "utf8")).version;

for (const [name, model, listed] of [["main", "mock-model", ["mock-model"]], ["anthropic", "claude-mock", ["claude-mock", "claude-mock-large"]]]) {
  test(`chat completions, streamed (${name} style): the openai client's streamed text and tool call equal the non-streamed ones; /v1/models lists the model`, async (t) => {
    t.diagnostic(`openai ${OPENAI_VERSION}`);
    const client = new OpenAI({ apiKey: TOKEN, baseURL: new URL("/v1", workers[name].url).href, maxRetries: 0, timeout: 30_000 });
    const models = await client.models.list();
    assert.deepEqual(models.data.map((m) => m.id), listed);

    const ask = { model, messages: [{ role: "user", content: "hello there, how are you" }] };
    const whole = await client.chat.completions.create(ask);
    const stream = await client.chat.completions.create({ ...ask, stream: true, stream_options: { include_usage: true } });
    let text = "";
    let pieces = 0;
    let finish = null;
    let usage = null;
    for await (const chunk of stream) {
      assert.equal(chunk.object, "chat.completion.chunk");
      if (chunk.usage) usage = chunk.usage;
      for (const c of chunk.choices) {
        if (c.delta.content) { text += c.delta.content; pieces++; }
        if (c.finish_reason) finish = c.finish_reason;
      }
    }
    assert.equal(text, whole.choices[0].message.content);
    assert.ok(pieces > 1, `the text came in ${pieces} pieces, as the model streamed it`);
    assert.equal(finish, "stop");
    assert.ok(usage.prompt_tokens > 0, JSON.stringify(usage));

    const tools = [{ type: "function", function: { name: "add", description: "Add two numbers.", parameters: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] } } }];
    const toolAsk = { model, messages: [{ role: "user", content: "add 2 and 3" }], tools };
    const wholeCall = (await client.chat.completions.create(toolAsk)).choices[0].message.tool_calls[0];
    // The client's stream helper assembles the tool-call deltas.
    const final = await client.chat.completions.stream(toolAsk).finalChatCompletion();
    const call = final.choices[0].message.tool_calls[0];
    assert.equal(final.choices[0].finish_reason, "tool_calls");
    assert.equal(call.type, "function");
    assert.equal(call.function.name, wholeCall.function.name);
    assert.deepEqual(JSON.parse(call.function.arguments), JSON.parse(wholeCall.function.arguments));
    assert.ok(call.id);
  });
}

test("chat completions, streamed: the first chunk reaches the client while the model is still streaming", async () => {
  // A model that sends its first delta, then holds the rest until the client
  // has that delta (the gate) or GATE_MS passes: a Worker that buffered the
  // upstream reply would leave the gate to time out.
  const g = newGate();
  const chunk = (delta, finish = null) =>
    `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", model: "m", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  const slow = createServer(async (req, res) => {
    for await (const _ of req);
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.write(chunk({ role: "assistant", content: "hello " }));
    await g.promise;
    res.end(chunk({ content: "world" }) + chunk({}, "stop") + "data: [DONE]\n\n");
  });
  await new Promise((r) => slow.listen(0, "127.0.0.1", r));
  const w = await startWorker({ LLM_BASE_URL: `http://127.0.0.1:${slow.address().port}/v1`, LLM_MODEL: "m", LLM_API_KEY: KEY, STATE_SECRET: SECRET, LLM_RETRIES: "0" });
  try {
    const res = await fetch(new URL("/v1/chat/completions", w.url), {
      method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "m", stream: true, messages: [{ role: "user", content: "hi" }] }),
      signal: AbortSignal.timeout(30_000),
    });
    assert.equal(res.status, 200);
    let text = "";
    const dec = new TextDecoder();
    for await (const part of res.body) {
      text += dec.decode(part, { stream: true });
      if (/hello/.test(text)) openGate();
    }
    assert.equal(g.openedBy, "client", "the model's second delta waited for the gate until it timed out: the Worker buffered the stream");
    const content = text.split("\n").filter((l) => l.startsWith("data: {")).map((l) => JSON.parse(l.slice(6)).choices?.[0]?.delta?.content ?? "").join("");
    assert.equal(content, "hello world");
    assert.match(text, /data: \[DONE\]\n\n$/);
  } finally {
    await w.dispose();
    slow.close();
  }
});

test("chat completions: an OpenAI-style model behind the gateway, and input errors", async () => {
  const client = new OpenAI({ apiKey: TOKEN, baseURL: new URL("/v1", workers.main.url).href, maxRetries: 0, timeout: 30_000 });
  const res = await client.chat.completions.create({ model: "mock-model", messages: [{ role: "user", content: "hello there" }] });
  assert.equal(res.choices[0].message.content, "heard: hello there");
  assert.equal(res.choices[0].finish_reason, "stop");
  const bad = await call("main", "POST", "/v1/chat/completions", { model: "m", messages: [{ role: "wizard", content: "x" }] });
  assert.equal(bad.status, 400);
  assert.equal(bad.json.error.code, "invalid_request");
  const upstream = await call("main", "POST", "/v1/chat/completions", { messages: [{ role: "user", content: "fail" }] });
  assert.equal(upstream.status, 502);
  assert.equal(upstream.json.error.upstreamStatus, 503);
});

test("chat completions: only a model the Worker lists (MODELS, else LLM_MODEL) is called; another is 400 with the list", async () => {
  const sent = (worker, model) => new OpenAI({ apiKey: TOKEN, baseURL: new URL("/v1", workers[worker].url).href, maxRetries: 0, timeout: 30_000 })
    .chat.completions.create({ model, messages: [{ role: "user", content: "hello" }] });
  // The Worker's key must not buy a caller any model it names (issue 33).
  for (const [worker, model, listed] of [["main", "gpt-4o", ["mock-model"]], ["anthropic", "claude-sonnet-4-5", ["claude-mock", "claude-mock-large"]]]) {
    const before = mock.requests.length;
    await assert.rejects(sent(worker, model), (err) => {
      assert.equal(err.status, 400);
      assert.equal(err.code, "unknown_model");
      for (const m of listed) assert.ok(err.message.includes(m), `${err.message} names ${m}`);
      return true;
    });
    const raw = await call(worker, "POST", "/v1/chat/completions", { model, messages: [{ role: "user", content: "hello" }] });
    assert.deepEqual(raw.json.models, listed);
    assert.equal(mock.requests.length, before, `${model} reached the model`);
  }
  // A listed model other than LLM_MODEL goes to the provider as named.
  const res = await sent("anthropic", "claude-mock-large");
  assert.equal(res.choices[0].message.content, "heard: hello");
  assert.equal(mock.requests.at(-1).body.model, "claude-mock-large");
});

test("metrics: the isolate's one Go instance counts every request it served", async () => {
  const res = await call("main", "GET", "/metrics", undefined, {});
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type"), /^text\/plain/);
  // One Go instance serves every request of the isolate: the runs and model
  // calls of the tests above are all counted.
  assert.match(res.text, /# TYPE toolnexus_worker_requests_total counter/);
  assert.match(res.text, /toolnexus_worker_requests_total\{route="chat_completions",code="200"\} [1-9]/);
  assert.match(res.text, /toolnexus_llm_requests_total\{[^}]*\} [1-9]/);
});
