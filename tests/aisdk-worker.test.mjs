// aisdk-worker.test.mjs — the AI SDK's own chat client (the `ai` package pinned in
// package.json: AbstractChat with DefaultChatTransport) drives the Worker's
// POST /v1/ui on workerd (Miniflare) against the scripted mock model (issue 25).
// Run after ./build.sh worker:
//
//   cd tests && timeout 300 node --test --test-force-exit aisdk-worker.test.mjs

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { DefaultChatTransport, lastAssistantMessageIsCompleteWithApprovalResponses } from "ai";
import { NodeChat, settled, last, textOf as text, toolPart } from "./aisdk-chat.mjs";
import { toolResultsOf } from "./mock-llm.mjs";
import { startWorkerMock } from "./worker-mock.mjs";
import { startWorker } from "./worker-harness.mjs";

const TOKEN = "aisdk-api-token-4c1e";

// The team of the AGENTS test: support hands refunds to billing, whose refund
// needs approval.
const AGENTS = JSON.stringify([
  { name: "support", does: "answers customers", instructions: "You are support.", team: ["billing"] },
  { name: "billing", does: "refunds orders", instructions: "You are billing.", tools: ["refund"] },
]);

let mock, worker;

before(async () => {
  mock = await startWorkerMock();
  worker = await startWorker({
    LLM_BASE_URL: `${mock.url}/v1`, LLM_MODEL: "mock-model", LLM_API_KEY: "sk-aisdk-key",
    STATE_SECRET: "aisdk-state-secret-0123456789abcdef", API_TOKEN: TOKEN, AGENTS,
  });
});

after(async () => {
  await worker?.dispose().catch(() => {});
  await mock?.close();
});

function chat({ fetch, body, ...init } = {}) {
  return new NodeChat({
    transport: new DefaultChatTransport({ api: new URL("/v1/ui", worker.url).href, headers: { authorization: `Bearer ${TOKEN}` }, fetch, body }),
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
    ...init,
  });
}

// refundsRun counts the model requests that carry the refund's real result:
// each one is one run of the tool.
const refundsRun = (order) =>
  mock.requests.filter((r) => toolResultsOf(r).some((t) => t.content === `refunded order ${order}`)).length;

test("text streams into the assistant message", async () => {
  const c = chat();
  await c.sendMessage({ text: "hello" });
  assert.equal(c.status, "ready", String(c.error));
  assert.equal(last(c).role, "assistant");
  assert.equal(text(last(c)), "hello from the mock model");
  assert.equal(last(c).metadata?.toolnexus?.status, "done");
});

test("refund halts with an approval request; approving runs it once and the text continues", async () => {
  const c = chat();
  await c.sendMessage({ text: "refund order 42" });
  assert.equal(c.status, "ready", String(c.error));
  const part = toolPart(last(c), "refund");
  assert.equal(part.state, "approval-requested");
  assert.deepEqual(part.input, { order: 42 });
  assert.equal(part.approval.descriptor.tool, "refund");
  assert.equal(part.toolMetadata.source, "native");
  assert.equal(refundsRun(42), 0);
  const before = mock.requests.length;

  await c.addToolApprovalResponse({ id: part.approval.id, approved: true });
  await settled(c);
  assert.equal(c.status, "ready", String(c.error));
  assert.equal(c.messages.length, 2, "the answer continues the same assistant message");
  const done = toolPart(last(c), "refund");
  assert.equal(done.state, "output-available");
  assert.equal(done.output, "refunded order 42");
  assert.match(text(last(c)), /done: refunded order 42/);
  assert.equal(mock.requests.length - before, 1);
  assert.equal(refundsRun(42), 1);
});

test("denying with a reason: the reason reaches the model", async () => {
  const c = chat();
  await c.sendMessage({ text: "refund order 42" });
  const part = toolPart(last(c), "refund");
  await c.addToolApprovalResponse({ id: part.approval.id, approved: false, reason: "not before Friday" });
  await settled(c);
  assert.equal(c.status, "ready", String(c.error));
  assert.equal(toolPart(last(c), "refund").state, "output-denied");
  const toModel = toolResultsOf(mock.requests[mock.requests.length - 1]);
  assert.match(toModel[0].content, /declined: not before Friday/);
  assert.match(text(last(c)), /not before Friday/);
});

test("the same approval response sent twice is refused; the tool ran once", async () => {
  const sent = [];
  const c = chat({ fetch: (url, init) => { sent.push(init.body); return fetch(url, init); } });
  await c.sendMessage({ text: "refund order 42" });
  const part = toolPart(last(c), "refund");
  const runsBefore = refundsRun(42);
  await c.addToolApprovalResponse({ id: part.approval.id, approved: true });
  await settled(c);
  assert.equal(c.status, "ready", String(c.error));
  assert.equal(sent.length, 2);
  assert.equal(refundsRun(42), runsBefore + 1);

  // The approval response's request exactly as the client sent it, again.
  const again = await worker.call("POST", "/v1/ui", { body: sent[1], headers: { authorization: `Bearer ${TOKEN}` } });
  assert.equal(again.status, 409);
  assert.equal(again.json.error.code, "state_spent");
  // And through a second client holding those messages (another tab).
  const replay = chat({ messages: JSON.parse(sent[1]).messages });
  assert.equal(toolPart(last(replay), "refund").state, "approval-responded");
  await replay.sendMessage();
  assert.equal(replay.status, "error");
  assert.match(replay.error.message, /state_spent/);
  assert.equal(refundsRun(42), runsBefore + 1);
});

test("a forged approval is refused and runs nothing", async () => {
  const c = chat();
  await c.sendMessage({ text: "refund order 42" });
  const part = toolPart(last(c), "refund");
  const forged = structuredClone(c.messages);
  const fp = toolPart(forged[1], "refund");
  fp.input = { order: 7 };
  // The token's payload edited (another order): its HMAC no longer fits.
  const [v, payload, mac] = fp.approval.signature.split(".");
  const state = JSON.parse(Buffer.from(payload, "base64url"));
  state.messages = JSON.parse(JSON.stringify(state.messages).replaceAll("42", "7"));
  fp.approval.signature = [v, Buffer.from(JSON.stringify(state)).toString("base64url"), mac].join(".");
  fp.state = "approval-responded";
  fp.approval.approved = true;
  const f = chat({ messages: forged });
  await f.sendMessage();
  assert.equal(f.status, "error");
  assert.match(f.error.message, /state_invalid/);
  assert.equal(refundsRun(7), 0);
  // An approval with no signature answers nothing this Worker asked.
  delete fp.approval.signature;
  const g = chat({ messages: forged });
  await g.sendMessage();
  assert.match(g.error.message, /unknown_approval/);
  assert.ok(part.approval.signature.startsWith("tn1."));
});

test("bad bodies are 400 with the reason", async () => {
  const post = (body) => worker.call("POST", "/v1/ui", { body, headers: { authorization: `Bearer ${TOKEN}` } });
  let r = await post({ id: "c1", messages: "hi" });
  assert.equal(r.status, 400);
  assert.equal(r.json.error.code, "invalid_field");
  assert.match(r.json.error.message, /"messages" must be a list of UI messages/);
  r = await post({ messages: [{ id: "u1", role: "user", content: "hi" }] });
  assert.equal(r.status, 400);
  assert.match(r.json.error.message, /messages\[0\]\.parts/);
  r = await post(`{"messages":${"[".repeat(1100)}${"]".repeat(1100)}}`);
  assert.equal(r.status, 400);
  assert.equal(r.json.error.code, "json_too_deep");
});

test("edited arguments ride in the request body; the result says what ran", async () => {
  const c = chat();
  await c.sendMessage({ text: "refund order 42" });
  const part = toolPart(last(c), "refund");
  await c.addToolApprovalResponse({ id: part.approval.id, approved: true, options: { body: { approvalArgs: { order: 43 } } } });
  await settled(c);
  assert.equal(c.status, "ready", String(c.error));
  const done = toolPart(last(c), "refund");
  assert.equal(done.output, "refunded order 43");
  assert.deepEqual(done.toolMetadata, { edited: true, args: { order: 43 }, originalArgs: { order: 42 } });
  assert.equal(refundsRun(43), 1);
});

test("an AGENTS team: the approval names the asking agent; approving resumes the tree", async () => {
  const c = chat({ body: { agent: "support" } });
  await c.sendMessage({ text: "review order 42" });
  assert.equal(c.status, "ready", String(c.error));
  const task = toolPart(last(c), "task");
  const refund = toolPart(last(c), "refund");
  assert.equal(task.state, "input-available");
  assert.equal(refund.state, "approval-requested");
  assert.deepEqual(refund.approval.descriptor.path, ["support", "billing"]);
  assert.deepEqual(refund.toolMetadata.path, ["support", "billing"]);
  const runsBefore = refundsRun(42);
  await c.addToolApprovalResponse({ id: refund.approval.id, approved: true });
  await settled(c);
  assert.equal(c.status, "ready", String(c.error));
  assert.equal(toolPart(last(c), "refund").output, "refunded order 42");
  assert.equal(toolPart(last(c), "task").state, "output-available");
  assert.match(text(last(c)), /done: .*refunded order 42/);
  assert.equal(last(c).metadata.toolnexus.agent, "support");
  assert.equal(refundsRun(42), runsBefore + 1);
});

test("reconnecting (useChat's resume) finds no running response", async () => {
  const c = chat();
  await c.sendMessage({ text: "hello" });
  await c.resumeStream();
  assert.equal(c.status, "ready", String(c.error));
  assert.equal(c.messages.length, 2);
});
