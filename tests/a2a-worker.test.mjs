// a2a-worker.test.mjs — the Worker as an A2A agent (issue 36, part 3): the
// official A2A JavaScript SDK's client (@a2a-js/sdk 1.3.0, A2A 1.0 JSON-RPC)
// against the built Worker on workerd (one Worker for the file). Each task
// is a durable run in the RunLog Durable Object; an approval is the task's
// input-required state, answered by a message, by CancelTask or through the
// approval link, once.
//
// The model (mock-llm.mjs under one rule): a tool result → "done: <output>";
// "review order N" → task {agent: billing, prompt: "refund order N"} (the
// support agent of AGENTS); "refund order N" → refund_order {order: N}; "what
// did I say first?" → "you said: <the conversation's first user message>";
// anything else → "hello from the mock model". refund_order is an HTTP tool
// (HTTP_TOOLS) on the mock's /tools, which counts what it is called with.
//
// The README's A2A lines (its a2a-curl and a2a-sdk blocks) run here too.
//
//   ./build.sh test runs it (test_a2a in scripts/a2a.sh); alone, after
//   ./build.sh worker: cd tests && timeout 600 node --test --test-force-exit a2a-worker.test.mjs

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { promisify } from "node:util";
import { Role, TaskState } from "@a2a-js/sdk";
import { ClientFactory, ClientFactoryOptions, DefaultAgentCardResolver, JsonRpcTransportFactory, createAuthenticatingFetchWithRetry } from "@a2a-js/sdk/client";
import { startMockLLM, toolResultsOf } from "./mock-llm.mjs";
import { startWorker } from "./worker-harness.mjs";

const TOKEN = "a2a-worker-api-token-5501";
const KEY = "sk-a2a-worker-provider-key-77";
const SECRET = "a2a-worker-state-secret-0123456789abcdef";
const T = { timeout: 120_000 };

let mock, worker, client;
const refunds = []; // what refund_order was called with: its order numbers

function reply(request) {
  const messages = request.body?.messages ?? [];
  const last = messages.at(-1) ?? {};
  const results = toolResultsOf({ body: { messages: [last] } });
  if (results.length) return { text: "done: " + results.map((r) => r.content).join("; ") };
  const prompt = typeof last.content === "string" ? last.content : "";
  const review = prompt.match(/review order (\d+)/);
  if (review) return { toolCalls: [{ name: "task", args: { agent: "billing", prompt: `refund order ${review[1]}` } }] };
  const refund = prompt.match(/refund order (\d+)/);
  if (refund) return { toolCalls: [{ name: "refund_order", args: { order: Number(refund[1]) } }] };
  if (prompt === "what did I say first?") return { text: "you said: " + messages.find((m) => m.role === "user")?.content };
  return { text: "hello from the mock model" };
}

// The SDK's own way to send the Worker's API_TOKEN with every request.
const authFetch = createAuthenticatingFetchWithRetry(fetch, {
  headers: async () => ({ authorization: `Bearer ${TOKEN}` }),
  shouldRetryWithHeaders: async () => undefined,
});

before(async () => {
  const script = new Proxy([], { get: (t, k) => (typeof k === "string" && /^\d+$/.test(k) ? reply : t[k]) });
  mock = await startMockLLM({ script, tools: { refund_order: (args) => { refunds.push(args.order); return `refunded order ${args.order}`; } } });
  const schema = { type: "object", properties: { order: { type: "integer" } }, required: ["order"] };
  worker = await startWorker({
    LLM_BASE_URL: `${mock.url}/v1`, LLM_MODEL: "mock-model", LLM_API_KEY: KEY, STATE_SECRET: SECRET, API_TOKEN: TOKEN,
    HTTP_TOOLS: JSON.stringify([{ name: "refund_order", description: "Refund an order.", url: `${mock.url}/tools/refund_order`, method: "POST", inputSchema: schema, needsApproval: true }]),
    AGENTS: JSON.stringify([
      { name: "support", does: "answers customers", instructions: "You are support.", team: ["billing"] },
      { name: "billing", does: "refunds orders", instructions: "You are billing.", tools: ["refund_order"], budget: { maxTurns: 4 } },
    ]),
  });
  const factory = new ClientFactory(ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
    transports: [new JsonRpcTransportFactory({ fetchImpl: authFetch })],
    cardResolver: new DefaultAgentCardResolver({ fetchImpl: authFetch }),
  }));
  client = await factory.createFromUrl(worker.url);
});

after(async () => {
  await worker?.dispose();
  await mock?.close();
});

// The SDK's message and part shapes.
const text = (value) => ({ content: { $case: "text", value } });
const data = (value) => ({ content: { $case: "data", value } });
const message = (parts, more = {}) => ({ messageId: crypto.randomUUID(), role: Role.ROLE_USER, parts, ...more });
const send = (parts, more, params = {}) => client.sendMessage({ message: message(parts, more), ...params });

// What the tests read of a task.
const artifactText = (task) => task.artifacts.find((a) => a.artifactId === "answer")?.parts[0].content.value;
const askData = (status) => status.message.parts.find((p) => p.content.$case === "data").content.value;
const count = (order) => refunds.filter((o) => o === order).length;

// rpc posts raw JSON-RPC text to the card's interface.
async function rpc(body) {
  const res = await fetch(new URL("/a2a", worker.url), { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${TOKEN}` }, body });
  assert.equal(res.status, 200);
  return res.json();
}

async function waitState(id, state) {
  for (const end = Date.now() + 30_000; ;) {
    const task = await client.getTask({ id });
    if (task.status.state === state) return task;
    assert.ok(Date.now() < end, `task ${id} stayed ${TaskState[task.status.state]}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

test("the card: the agent and its team as skills, JSON-RPC at /a2a, streaming, bearer", T, async () => {
  const card = await client.getAgentCard();
  assert.equal(card.name, "toolnexus");
  assert.deepEqual(card.skills.map((s) => s.id), ["agent", "support", "billing"]);
  assert.match(card.skills[0].description, /refund_order/);
  assert.equal(card.supportedInterfaces[0].protocolBinding, "JSONRPC");
  assert.equal(new URL(card.supportedInterfaces[0].url).pathname, "/a2a");
  assert.equal(card.capabilities.streaming, true);
  const res = await fetch(new URL("/.well-known/agent-card.json", worker.url));
  assert.equal(res.status, 401, "the card is behind API_TOKEN, like the tool list");
});

test("a message that needs no approval: completed, the answer as the artifact", T, async () => {
  const task = await send([text("hello there")]);
  assert.equal(task.status.state, TaskState.TASK_STATE_COMPLETED);
  assert.equal(artifactText(task), "hello from the mock model");
  assert.match(task.id, /^run_[0-9a-f]{32}$/);
  const again = await client.getTask({ id: task.id });
  assert.equal(artifactText(again), "hello from the mock model");
  assert.deepEqual(again.metadata.toolCalls, []);
});

test("refund order 42: input-required with the request; approve → completed, the refund ran once; again → refused", T, async () => {
  const task = await send([text("refund order 42")]);
  assert.equal(task.status.state, TaskState.TASK_STATE_INPUT_REQUIRED);
  const ask = askData(task.status);
  assert.equal(ask.kind, "approval");
  assert.equal(ask.tool, "refund_order");
  assert.deepEqual(ask.args, { order: 42 });
  assert.match(ask.approveURL, new RegExp(`/approve\\?run=${task.id}&`));
  assert.equal(count(42), 0);

  const done = await send([data({ approved: true })], { taskId: task.id, contextId: task.contextId });
  assert.equal(done.status.state, TaskState.TASK_STATE_COMPLETED);
  assert.match(artifactText(done), /^done: .*refunded order 42/);
  assert.equal(count(42), 1);

  await assert.rejects(send([data({ approved: true })], { taskId: task.id }), (err) => err.envelopeCode === -32004 || /answered|ended/.test(err.message));
  assert.equal(count(42), 1, "a second answer runs nothing");
  const stored = await client.getTask({ id: task.id });
  assert.equal(stored.status.state, TaskState.TASK_STATE_COMPLETED);
  assert.equal(stored.metadata.toolCalls[0].name, "refund_order");
});

test("decline with a reason: the reason reaches the model, nothing runs", T, async () => {
  const task = await send([text("refund order 43")]);
  const from = mock.requests.length;
  const done = await send([data({ approved: false, reason: "outside the refund window" })], { taskId: task.id });
  assert.equal(done.status.state, TaskState.TASK_STATE_COMPLETED);
  assert.match(artifactText(done), /outside the refund window/);
  const seen = mock.requests.slice(from).flatMap((r) => toolResultsOf(r)).map((r) => r.content);
  assert.ok(seen.some((c) => c.includes("outside the refund window")), `the model read ${JSON.stringify(seen)}`);
  assert.equal(done.metadata.toolCalls[0].declined, true);
  assert.equal(count(43), 0);
});

test("approve with edited arguments: those run, and the record says so", T, async () => {
  const task = await send([text("refund order 44")]);
  const done = await send([text("make it 45"), data({ approved: true, args: { order: 45 } })], { taskId: task.id });
  assert.equal(done.status.state, TaskState.TASK_STATE_COMPLETED);
  assert.equal(count(44), 0);
  assert.equal(count(45), 1);
  const call = done.metadata.toolCalls[0];
  assert.equal(call.edited, true);
  assert.deepEqual(call.args, { order: 45 });
  assert.deepEqual(call.originalArgs, { order: 44 });
});

test("a team's task: the request names the asking agent's path", T, async () => {
  const task = await send([text("review order 46")], {}, { metadata: { skill: "support" } });
  assert.equal(task.status.state, TaskState.TASK_STATE_INPUT_REQUIRED);
  const ask = askData(task.status);
  assert.deepEqual(ask.path, ["support", "billing"]);
  assert.equal(ask.tool, "refund_order");
  const done = await send([text("approve")], { taskId: task.id });
  assert.equal(done.status.state, TaskState.TASK_STATE_COMPLETED);
  assert.match(artifactText(done), /refunded order 46/);
  assert.equal(count(46), 1);
});

test("streaming: the task, its progress, the halt; the answer streams to completion", T, async () => {
  const first = [];
  for await (const ev of client.sendMessageStream({ message: message([text("refund order 47")]) })) first.push(ev);
  const kinds = (evs) => evs.map((e) => e.payload.$case === "task" ? `task:${TaskState[e.payload.value.status.state]}`
    : e.payload.$case === "statusUpdate" ? `status:${TaskState[e.payload.value.status.state]}` : `${e.payload.$case}`);
  assert.deepEqual(kinds(first), ["task:TASK_STATE_WORKING", "status:TASK_STATE_WORKING", "status:TASK_STATE_INPUT_REQUIRED"]);
  const halt = first.at(-1).payload.value;
  assert.equal(askData(halt.status).tool, "refund_order");
  const second = [];
  for await (const ev of client.sendMessageStream({ message: message([data({ approved: true })], { taskId: halt.taskId }) })) second.push(ev);
  assert.deepEqual(kinds(second), ["task:TASK_STATE_WORKING", "status:TASK_STATE_WORKING", "status:TASK_STATE_WORKING", "artifactUpdate", "status:TASK_STATE_COMPLETED"]);
  assert.match(second.at(-2).payload.value.artifact.parts[0].content.value, /refunded order 47/);
  assert.equal(count(47), 1);
});

test("the approval link answers an A2A task, once", T, async () => {
  const task = await send([text("refund order 48")]);
  const link = new URL(askData(task.status).approveURL);
  const res = await fetch(new URL(link.pathname + link.search, worker.url), { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ ok: true }) });
  assert.equal(res.status, 200, await res.text());
  const done = await waitState(task.id, TaskState.TASK_STATE_COMPLETED);
  assert.match(artifactText(done), /refunded order 48/);
  await assert.rejects(send([data({ approved: true })], { taskId: task.id }));
  assert.equal(count(48), 1);
});

test("CancelTask declines a waiting task: the model reads why", T, async () => {
  const task = await send([text("refund order 49")]);
  await client.cancelTask({ id: task.id, metadata: { reason: "the customer called back" } });
  const done = await waitState(task.id, TaskState.TASK_STATE_COMPLETED);
  assert.match(artifactText(done), /the customer called back/);
  assert.equal(count(49), 0);
});

test("contextId continues the conversation: the next task's run reads the earlier one", T, async () => {
  const first = await send([text("hello, I am Ada")]);
  const second = await send([text("what did I say first?")], { contextId: first.contextId });
  assert.equal(second.contextId, first.contextId);
  assert.notEqual(second.id, first.id);
  assert.equal(artifactText(second), "you said: hello, I am Ada");
});

test("bad input: JSON-RPC errors with codes, and nothing runs", T, async () => {
  const from = mock.requests.length;
  const deep = '{"a":'.repeat(40) + "1" + "}".repeat(40);
  const cases = [
    ['{"jsonrpc":', -32700],
    ['{"jsonrpc":"2.0","id":1,"method":"message/teleport","params":{}}', -32601],
    ['{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"run_00000000000000000000000000000000"}}', -32001],
    [`{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":${deep}}`, -32600],
    [`{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"parts":[{"text":"${"x".repeat(1 << 20)}"}]}}}`, -32600],
    ['{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"parts":[{"text":"approve"}],"taskId":"run_00000000000000000000000000000000"}}}', -32001],
  ];
  for (const [body, code] of cases) {
    const res = await rpc(body);
    assert.equal(res.error?.code, code, `${body.slice(0, 80)} → ${JSON.stringify(res).slice(0, 200)}`);
  }
  await assert.rejects(client.getTask({ id: "run_00000000000000000000000000000000" }), (err) => err.envelopeCode === -32001 || /not found/i.test(err.message));
  assert.equal(mock.requests.length, from, "no model call");
});

// readmeBlock is the fenced block after `<!-- readme-test: kind -->`.
function readmeBlock(kind) {
  const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
  const m = readme.match(new RegExp(`<!-- readme-test: ${kind} -->\\n\`\`\`[a-z]*\\n([\\s\\S]*?)\\n\`\`\``));
  assert.ok(m, `README.md has no readme-test ${kind} block`);
  return m[1];
}

test("the README's curl lines and SDK lines work as written", T, async () => {
  const base = new URL(worker.url).origin;
  const fill = (s, order) => s.replaceAll("https://<worker>", base).replaceAll("<API_TOKEN>", TOKEN).replaceAll("refund order 42", `refund order ${order}`);
  // curl, each line in sh with the first line's variables (asynchronously:
  // the mock model answers the Worker from this process).
  const [vars, card, start, answer] = readmeBlock("a2a-curl").split("\n").filter((l) => !l.startsWith("#")).map((l) => fill(l, 50));
  const sh = async (cmd) => JSON.parse((await promisify(execFile)("sh", ["-c", `${vars}\n${cmd}`])).stdout);
  assert.equal((await sh(card)).name, "toolnexus");
  const started = (await sh(start)).result.task;
  assert.equal(started.status.state, "TASK_STATE_INPUT_REQUIRED");
  assert.equal(started.status.message.parts[1].data.tool, "refund_order");
  const finished = (await sh(answer.replace("run_…", started.id))).result.task;
  assert.equal(finished.status.state, "TASK_STATE_COMPLETED");
  assert.equal(count(50), 1);
  // The SDK's lines, with its names in scope.
  const AsyncFunction = (async () => {}).constructor;
  const sdk = await import("@a2a-js/sdk/client");
  const run = new AsyncFunction("createAuthenticatingFetchWithRetry", "ClientFactory", "ClientFactoryOptions", "JsonRpcTransportFactory", "DefaultAgentCardResolver", "Role", "TaskState",
    fill(readmeBlock("a2a-sdk"), 51) + "\nreturn { task, done };");
  const { task, done } = await run(sdk.createAuthenticatingFetchWithRetry, sdk.ClientFactory, sdk.ClientFactoryOptions, sdk.JsonRpcTransportFactory, sdk.DefaultAgentCardResolver, Role, TaskState);
  assert.equal(task.status.state, TaskState.TASK_STATE_INPUT_REQUIRED);
  assert.equal(task.status.message.parts[1].content.value.tool, "refund_order");
  assert.equal(done.status.state, TaskState.TASK_STATE_COMPLETED);
  assert.equal(count(51), 1);
});
