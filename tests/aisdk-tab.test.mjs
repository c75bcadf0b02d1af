// aisdk-tab.test.mjs — the AI SDK's own chat client (AbstractChat from the `ai`
// package pinned in package.json) with toolnexus.mjs's chatTransport: our wasm
// loop in the same process, against the offline demo model (web/demo-model.mjs),
// no server at all (issue 25). Run after ./build.sh:
//
//   cd tests && timeout 300 node --test --test-force-exit aisdk-tab.test.mjs

import { test, before } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { lastAssistantMessageIsCompleteWithApprovalResponses } from "ai";
import { NodeChat, settled, last, textOf, toolPart } from "./aisdk-chat.mjs";

const here = fileURLToPath(new URL(".", import.meta.url));
const WEB = process.env.TOOLNEXUS_WEB ?? join(process.env.TOOLNEXUS_DIST ?? join(here, "..", "dist"), "web");

let tnx, mod, demoModel, refund, toolkit, client;
const runs = []; // every run of the refund tool: its order

before(async () => {
  assert.ok(existsSync(join(WEB, "toolnexus-tools.wasm")), `no build in ${WEB}: run ./build.sh first`);
  mod = await import(pathToFileURL(join(WEB, "toolnexus.mjs")).href);
  ({ demoModel } = await import(pathToFileURL(join(WEB, "demo-model.mjs")).href));
  tnx = await mod.load({ wasm: join(WEB, "toolnexus-tools.wasm") }); // the build with agents
  refund = tnx.defineTool({
    name: "refund",
    description: "Refund an order",
    inputSchema: { type: "object", properties: { order: { type: "string" } }, required: ["order"] },
    needsApproval: true,
    run: ({ order }) => { runs.push(order); return `refunded order ${order}`; },
  });
  toolkit = await tnx.createToolkit({ tools: [refund] });
  client = await tnx.createClient({ ...demoModel() }); // no waitFor: approvals go to the UI
});

function chat(init = {}) {
  return new NodeChat({
    transport: init.transport ?? mod.chatTransport({ client, toolkit }),
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
    ...init,
  });
}

test("text streams into the assistant message", async () => {
  const c = chat();
  await c.sendMessage({ text: "hello" });
  assert.equal(c.status, "ready", String(c.error));
  assert.match(textOf(last(c)), /offline demo model/);
  assert.equal(last(c).metadata.toolnexus.status, "done");
});

test("refund halts with an approval request; approving runs it once and the text continues", async () => {
  const c = chat();
  await c.sendMessage({ text: "refund order 42" });
  assert.equal(c.status, "ready", String(c.error));
  const part = toolPart(last(c), "refund");
  assert.equal(part.state, "approval-requested");
  assert.deepEqual(part.input, { order: "42" });
  assert.equal(part.approval.descriptor.tool, "refund");
  assert.equal(runs.length, 0);
  await c.addToolApprovalResponse({ id: part.approval.id, approved: true });
  await settled(c);
  assert.equal(c.status, "ready", String(c.error));
  assert.equal(c.messages.length, 2);
  assert.equal(toolPart(last(c), "refund").state, "output-available");
  assert.equal(toolPart(last(c), "refund").output, "refunded order 42");
  assert.match(textOf(last(c)), /Done: refunded order 42/);
  assert.deepEqual(runs, ["42"]);
});

test("denying with a reason: the reason reaches the model", async () => {
  const c = chat();
  await c.sendMessage({ text: "refund order 43" });
  const part = toolPart(last(c), "refund");
  await c.addToolApprovalResponse({ id: part.approval.id, approved: false, reason: "not before Friday" });
  await settled(c);
  assert.equal(c.status, "ready", String(c.error));
  assert.equal(toolPart(last(c), "refund").state, "output-denied");
  assert.match(textOf(last(c)), /I did not refund order 43: "not before Friday"/);
  assert.ok(!runs.includes("43"));
});

test("the same approval response sent twice is refused; the tool ran once", async () => {
  const transport = mod.chatTransport({ client, toolkit });
  const sent = [];
  const recording = { ...transport, sendMessages: (o) => { sent.push(structuredClone(o.messages)); return transport.sendMessages(o); } };
  const c = chat({ transport: recording });
  await c.sendMessage({ text: "refund order 44" });
  await c.addToolApprovalResponse({ id: toolPart(last(c), "refund").approval.id, approved: true });
  await settled(c);
  assert.equal(c.status, "ready", String(c.error));
  assert.equal(runs.filter((o) => o === "44").length, 1);
  const replay = chat({ transport, messages: sent[1] });
  await replay.sendMessage();
  assert.equal(replay.status, "error");
  assert.match(replay.error.message, /answers no request of this chat/);
  assert.equal(runs.filter((o) => o === "44").length, 1);
});

test("a conversation carries on: earlier turns reach the model as a transcript", async () => {
  const model = demoModel();
  const bodies = [];
  const recorded = await tnx.createClient({ ...model, fetch: async (url, init) => { bodies.push(JSON.parse(init.body)); return model.fetch(url, init); } });
  const c = chat({ transport: mod.chatTransport({ client: recorded, toolkit }) });
  await c.sendMessage({ text: "refund order 45" });
  await c.addToolApprovalResponse({ id: toolPart(last(c), "refund").approval.id, approved: true });
  await settled(c);
  await c.sendMessage({ text: "hello" });
  assert.equal(c.status, "ready", String(c.error));
  assert.equal(c.messages.length, 4);
  assert.match(textOf(last(c)), /offline demo model/);
  const sent = bodies[bodies.length - 1].messages.filter((m) => m.role !== "system");
  assert.deepEqual(sent.map((m) => m.role), ["user", "assistant", "tool", "assistant", "user"]);
  assert.equal(sent[1].tool_calls[0].function.name, "refund");
  assert.equal(sent[2].content, "refunded order 45");
  assert.match(sent[3].content, /Done: refunded order 45/);
  await recorded.close();
});

test("bad input is refused", async () => {
  const t = mod.chatTransport({ client, toolkit });
  await assert.rejects(t.sendMessages({ messages: "hi" }), /non-empty list of UI messages/);
  await assert.rejects(t.sendMessages({ messages: [{ role: "user", content: "hi" }] }), /messages\[0\] is not a UI message/);
  assert.equal(await t.reconnectToStream({ chatId: "x" }), null);
});

test("edited arguments ride in the request body; the result says what ran", async () => {
  const c = chat();
  await c.sendMessage({ text: "refund order 46" });
  const part = toolPart(last(c), "refund");
  await c.addToolApprovalResponse({ id: part.approval.id, approved: true, options: { body: { approvalArgs: { order: "47" } } } });
  await settled(c);
  assert.equal(c.status, "ready", String(c.error));
  const done = toolPart(last(c), "refund");
  assert.equal(done.output, "refunded order 47");
  assert.deepEqual(done.toolMetadata, { edited: true, args: { order: "47" }, originalArgs: { order: "46" } });
  assert.ok(runs.includes("47") && !runs.includes("46"));
});

test("an agent team: the approval names the asking agent; approving resumes the tree", async () => {
  const billing = tnx.createAgent({ name: "billing", does: "Refunds orders", instructions: "You are billing.", tools: [refund] });
  const support = tnx.createAgent({ name: "support", instructions: "You are support.", team: [billing] });
  const transport = mod.chatTransport({ agent: support, model: demoModel() });
  const c = chat({ transport });
  await c.sendMessage({ text: "review order 48" });
  assert.equal(c.status, "ready", String(c.error));
  const part = toolPart(last(c), "refund");
  assert.equal(toolPart(last(c), "task").state, "input-available");
  assert.equal(part.state, "approval-requested");
  assert.deepEqual(part.approval.descriptor.path, ["support", "billing"]);
  assert.deepEqual(part.toolMetadata.path, ["support", "billing"]);
  await c.addToolApprovalResponse({ id: part.approval.id, approved: true });
  await settled(c);
  assert.equal(c.status, "ready", String(c.error));
  assert.equal(toolPart(last(c), "refund").output, "refunded order 48");
  assert.equal(toolPart(last(c), "task").state, "output-available");
  assert.match(textOf(last(c)), /Billing has refunded order 48/);
  assert.deepEqual(runs.filter((o) => o === "48"), ["48"]);
  // The same answer again: refused, nothing ran.
  const replay = chat({ transport, messages: structuredClone(c.messages).map((m) => m.role !== "assistant" ? m : {
    ...m, parts: m.parts.map((p) => (p.type === "tool-refund" ? { ...p, state: "approval-responded", approval: { ...p.approval, approved: true } } : p)),
  }) });
  await replay.sendMessage();
  assert.equal(replay.status, "error");
  assert.deepEqual(runs.filter((o) => o === "48"), ["48"]);
});

test("an Anthropic-style client gets the earlier turns in Anthropic's transcript", async () => {
  const { startMockLLM } = await import("./mock-llm.mjs");
  const mock = await startMockLLM({ script: [{ text: "ok" }] });
  const anthropic = await tnx.createClient({ baseURL: mock.url, style: "anthropic", model: "m", apiKey: "k" });
  try {
    const prior = [
      { id: "u1", role: "user", parts: [{ type: "text", text: "refund order 49" }] },
      { id: "a1", role: "assistant", parts: [
        { type: "step-start" },
        { type: "tool-refund", toolCallId: "toolu_1", state: "output-denied", input: { order: "49" }, approval: { id: "r1", approved: false, reason: "no" } },
        { type: "step-start" },
        { type: "text", text: "I did not." },
      ] },
    ];
    const c = chat({ transport: mod.chatTransport({ client: anthropic, toolkit, style: "anthropic" }), messages: prior });
    await c.sendMessage({ text: "hello" });
    assert.equal(c.status, "ready", String(c.error));
    assert.equal(textOf(last(c)), "ok");
    const sent = mock.requests[0].body.messages;
    assert.deepEqual(sent.map((m) => m.role), ["user", "assistant", "user", "assistant", "user"]);
    assert.deepEqual(sent[1].content, [{ type: "tool_use", id: "toolu_1", name: "refund", input: { order: "49" } }]);
    assert.equal(sent[2].content[0].tool_use_id, "toolu_1");
    assert.equal(sent[2].content[0].is_error, true);
    assert.match(sent[2].content[0].content, /declined: no/);
  } finally {
    await anthropic.close();
    await mock.close();
  }
});
