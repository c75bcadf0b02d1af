// agents.test.mjs — teams of agents through toolnexus.mjs under Node, with the
// tools build (the one that links core/agents): each suspension case and each
// runtime verb, with an in-process scripted model (generate) so every turn is
// known.
//
//   ./build.sh && cd tests && timeout 300 node --test agents.test.mjs

import { before, test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { startMockLLM, toolResultsOf } from "./mock-llm.mjs";
import { loadToolsBuild, WEB } from "./tools-build.mjs";

const T = { timeout: 30_000 };

let tnx;
before(async () => {
  tnx = await loadToolsBuild();
});

// teamModel is the scripted model of a support → billing team. support hands
// "review order N" to billing as "refund order N"; billing calls refund and
// reports its result (or the refusal); support answers with billing's report.
// seen records every request by agent.
function teamModel(seen = []) {
  return async (req) => {
    const system = String(req.messages.find((m) => m.role === "system")?.content ?? "");
    const last = req.messages.at(-1);
    const who = system.includes("You are billing") ? "billing" : system.includes("You are support") ? "support" : "other";
    seen.push({ who, last, tools: (req.tools ?? []).map((t) => t.function?.name) });
    const usage = { promptTokens: 10, completionTokens: 5 };
    if (who === "support") {
      if (last.role === "user") {
        const order = String(last.content).match(/order (\d+)/)?.[1] ?? "?";
        return { toolCalls: [{ name: "task", arguments: { agent: "billing", prompt: `refund order ${order}` } }], usage };
      }
      return { text: `Support: billing says: ${last.content}`, usage };
    }
    if (who === "billing") {
      if (last.role === "user") {
        const order = String(last.content).match(/order (\d+)/)?.[1] ?? "?";
        return { toolCalls: [{ name: "refund", arguments: { order } }], usage };
      }
      if (/declined|was not run/i.test(String(last.content))) return { text: `I could not refund it: ${last.content}`, usage };
      return { text: `Billing: ${last.content}`, usage };
    }
    return { text: "?", usage };
  };
}

// team builds support → billing with a refund tool that needs approval and
// counts its runs.
function team({ billingWaitFor, supportBudget } = {}) {
  const runs = [];
  const refund = tnx.defineTool({
    name: "refund", description: "Refund an order.", needsApproval: true,
    inputSchema: { type: "object", properties: { order: { type: "string" } }, required: ["order"] },
    run: ({ order }) => { runs.push(order); return `refunded order ${order}`; },
  });
  const billing = tnx.createAgent({ name: "billing", does: "refunds", instructions: "You are billing.", tools: [refund], waitFor: billingWaitFor });
  const support = tnx.createAgent({ name: "support", instructions: "You are support.", team: [billing], budget: supportBudget });
  return { support, billing, runs };
}

const never = () => { throw new Error("this waitFor must not be asked"); };

test("createAgent validates its spec", T, () => {
  assert.throws(() => tnx.createAgent({}), /needs a name/);
  assert.throws(() => tnx.createAgent({ name: "a", tools: "x" }), /must be arrays/);
});

test("inline answer: the nearest waitFor (billing's own) answers, with the asking agent's path", T, async () => {
  const asked = [];
  const { support, runs } = team({ billingWaitFor: (req) => { asked.push(req); return tnx.answerOutput(req.id, "yes"); } });
  const seen = [];
  const res = await support.run("review order 42", { generate: teamModel(seen), waitFor: never });
  assert.equal(res.status, "done", res.text);
  assert.equal(asked.length, 1);
  assert.deepEqual(asked[0].data.path, ["support", "billing"]);
  assert.equal(asked[0].data.tool, "refund");
  assert.deepEqual(runs, ["42"]);
  assert.match(res.text, /^Support: billing says: Billing: refunded order 42$/);
  assert.equal(res.runtime, undefined, "a finished run keeps no runtime");
  // The support model was offered the task tool; billing was offered refund only.
  assert.deepEqual(seen.find((s) => s.who === "support").tools, ["task"]);
  assert.deepEqual(seen.find((s) => s.who === "billing").tools, ["refund"]);
});

test("inline answer: the runtime's waitFor answers when no agent on the chain has one", T, async () => {
  const asked = [];
  const { support, runs } = team();
  const res = await support.run("review order 7", {
    generate: teamModel(), waitFor: (req) => { asked.push(req.data.path); return tnx.answerDeclined(req.id, "no refunds on Sundays"); },
  });
  assert.equal(res.status, "done");
  assert.deepEqual(asked, [["support", "billing"]]);
  assert.deepEqual(runs, []);
  assert.match(res.text, /could not refund it: .*no refunds on Sundays/);
});

test("durable halt at the root with the leaf's path, then resume to the deepest leaf (approve)", T, async () => {
  const { support, runs } = team();
  const events = [];
  const res = await support.run("review order 42", { generate: teamModel(), onEvent: (e) => events.push(e) });
  assert.equal(res.status, "pending");
  assert.deepEqual(res.pending.data.path, ["support", "billing"]);
  assert.equal(res.pending.data.tool, "refund");
  assert.deepEqual(res.pending.data.args, { order: "42" });
  assert.deepEqual(runs, [], "nothing runs before the answer");
  const rows = await res.runtime.list();
  assert.deepEqual(rows.map((r) => [r.path.join("/"), r.state]), [["support", "suspended"], ["support/billing", "suspended"]]);
  assert.ok(events.some((e) => e.type === "spawned" && e.path.join("/") === "support/billing"), JSON.stringify(events.map((e) => e.type)));
  const done = await res.runtime.resume(tnx.answerOutput(res.pending.id, "approved"));
  assert.equal(done.status, "done", done.text);
  assert.deepEqual(runs, ["42"]);
  assert.equal(done.text, "Support: billing says: Billing: refunded order 42");
  await res.runtime.release();
});

test("a decline reaches billing as an error result it recovers from; support answers the person", T, async () => {
  const { support, runs } = team();
  const seen = [];
  const res = await support.run("review order 42", { generate: teamModel(seen) });
  assert.equal(res.status, "pending");
  const done = await res.runtime.resume(tnx.answerDeclined(res.pending.id, "customer already refunded"));
  assert.equal(done.status, "done");
  assert.deepEqual(runs, []);
  const billingSaw = seen.filter((s) => s.who === "billing").at(-1).last;
  assert.equal(billingSaw.role, "tool");
  assert.match(String(billingSaw.content), /customer already refunded/);
  assert.match(done.text, /^Support: billing says: I could not refund it: .*customer already refunded/);
  await res.runtime.release();
});

test("snapshot → restoreRuntime → resume continues the halted tree in a fresh runtime", T, async () => {
  const { support, runs } = team();
  const model = { generate: teamModel() };
  const res = await support.run("review order 9", model);
  assert.equal(res.status, "pending");
  const snap = await res.runtime.snapshot();
  assert.equal(typeof snap, "string");
  assert.match(snap, /billing/);
  await res.runtime.release(); // the original tree is gone
  const rt = await tnx.restoreRuntime({ ...model, agent: support }, snap);
  const rows = await rt.list();
  assert.deepEqual(rows.map((r) => r.state), ["suspended", "suspended"]);
  await assert.rejects(rt.resume(tnx.answerOutput("not-the-id", "x")), /cannot resume: no agent waits on request "not-the-id"/);
  const done = await rt.resume(tnx.answerOutput(res.pending.id, "approved"));
  assert.equal(done.status, "done", done.text);
  assert.deepEqual(runs, ["9"]);
  assert.match(done.text, /refunded order 9/);
  await assert.rejects(rt.resume(tnx.answerOutput(res.pending.id, "again")), /no suspended agent/);
  await rt.release();
});

test("a restored runtime takes handle ids for every verb: inspect, wait, interrupt, post, wake, spawn", T, async () => {
  const { support, runs } = team();
  const res = await support.run("review order 5", { generate: teamModel() });
  assert.equal(res.status, "pending");
  const snap = await res.runtime.snapshot();
  await res.runtime.release();
  const asked = [];
  const rt = await tnx.restoreRuntime({ generate: teamModel(), agent: support, waitFor: (req) => { asked.push(req.data.path.join("/")); return tnx.answerOutput(req.id, "approved"); } }, snap);
  const [sup, bil] = (await rt.list()).map((r) => r.id);
  assert.equal(bil, res.pending.data.handle);
  // The restored halt reads by id …
  const row = await rt.inspect(bil);
  assert.equal(row.state, "suspended");
  assert.equal(row.pendingKind, res.pending.kind);
  const halted = await rt.wait(bil);
  assert.equal(halted.status, "pending");
  assert.equal(halted.pending.id, res.pending.id);
  assert.equal((await rt.wait(sup, { timeoutMs: 20 })).status, "pending");
  // … an interrupt by id withdraws it …
  await rt.interrupt(bil);
  assert.equal((await rt.wait(bil)).status, "interrupted");
  assert.equal((await rt.inspect(bil)).state, "idle");
  // … and the handle takes new work by id (the runtime's waitFor approves).
  assert.deepEqual(await rt.post(bil, "the customer called again"), { ok: true });
  assert.deepEqual(await rt.wake(bil, "refund order 6"), { ok: true });
  const again = await rt.wait(bil);
  assert.equal(again.status, "done", again.text);
  assert.match(again.text, /refunded order 6/);
  assert.deepEqual(runs, ["6"], "the withdrawn refund of order 5 never ran");
  assert.deepEqual(asked, ["support/billing"]);
  assert.equal(await rt.spawn(sup, "billing"), `${sup}/billing.2`);
  await assert.rejects(rt.wait("root/support.1/nobody.1"), /no handle "root\/support.1\/nobody.1"/);
  await assert.rejects(rt.inspect(42), /a handle is an id string/);
  await rt.close(bil);
  assert.equal((await rt.inspect(bil)).state, "closed");
  await rt.release();
});

test("budget exhausted: a turn cap with tool calls still coming is incomplete, not a crash", T, async () => {
  const add = tnx.defineTool({ name: "add", run: ({ a, b }) => String(a + b) });
  const looper = tnx.createAgent({ name: "looper", tools: [add], budget: { maxTurns: 2 } });
  let calls = 0;
  const res = await looper.run("go", { generate: async () => ({ toolCalls: [{ name: "add", arguments: { a: 1, b: ++calls } }] }) });
  assert.equal(res.status, "incomplete");
  assert.equal(res.limit, "maxTurns");
  assert.equal(calls, 2);
});

test("budget exhausted: a token pool spent by the first turn stops the next one", T, async () => {
  const { support } = team({ supportBudget: { maxTokens: 20 } });
  const res = await support.run("review order 1", { generate: async () => ({ toolCalls: [{ name: "task", arguments: { agent: "billing", prompt: "x" } }], usage: { promptTokens: 30, completionTokens: 5 } }) });
  assert.equal(res.status, "incomplete", JSON.stringify(res));
  assert.equal(res.limit, "maxTokens");
});

// blocker is a tool that runs until released; started resolves when it runs.
function blocker() {
  let release, started;
  const gate = new Promise((r) => { release = r; });
  const began = new Promise((r) => { started = r; });
  const tool = tnx.defineTool({ name: "slow", run: async () => { started(); await gate; return "finished"; } });
  return { tool, release: () => release(), began };
}

test("spawn, post, wake, wait and interrupt: an interrupted turn settles 'interrupted' and the handle lives on", T, async () => {
  const b = blocker();
  const worker = tnx.createAgent({ name: "worker", tools: [b.tool] });
  const prompts = [];
  const rt = await tnx.createRuntime({
    agent: worker,
    generate: async (req) => {
      const last = req.messages.at(-1);
      if (last.role === "tool") return { text: `tool said ${last.content}` };
      prompts.push(String(last.content));
      return /slow/.test(last.content) ? { toolCalls: [{ name: "slow", arguments: {} }] } : { text: "ok" };
    },
  });
  const h = await rt.spawn(null, "worker");
  assert.match(h, /^root\/worker/);
  assert.deepEqual(await rt.post(h, "a note from outside"), { ok: true });
  assert.equal((await rt.inspect(h)).inbox, 1);
  assert.deepEqual(await rt.wake(h, "be slow"), { ok: true });
  await b.began;
  assert.equal((await rt.inspect(h)).state, "running");
  const timedOut = await rt.wait(h, { timeoutMs: 20 });
  assert.equal(timedOut.status, "timeout");
  await rt.interrupt(h);
  const r = await rt.wait(h);
  assert.equal(r.status, "interrupted");
  assert.equal((await rt.inspect(h)).state, "idle");
  assert.match(prompts[0], /a note from outside/, "the inbox was drained into the turn");
  b.release();
  assert.deepEqual(await rt.wake(h, "now quick"), { ok: true });
  assert.equal((await rt.wait(h)).text, "ok");
  await assert.rejects(rt.wait("root/nobody.1"), /no handle/);
  await rt.release();
});

test("close of a parent with a running child closes both, leaf first", T, async () => {
  const b = blocker();
  const closedOrder = [];
  const child = tnx.createAgent({ name: "child", does: "slow work", tools: [b.tool] });
  const parent = tnx.createAgent({ name: "parent", team: [child] });
  const rt = await tnx.createRuntime({
    agent: parent,
    onEvent: (e) => { if (e.type === "closed") closedOrder.push(e.path.join("/")); },
    generate: async (req) => {
      const sys = String(req.messages.find((m) => m.role === "system")?.content ?? "");
      const tools = (req.tools ?? []).map((t) => t.function?.name);
      if (tools.includes("task")) return { toolCalls: [{ name: "task", arguments: { agent: "child", prompt: "work" } }] };
      return { toolCalls: [{ name: "slow", arguments: {} }], text: sys };
    },
  });
  const running = rt.run("start");
  await b.began;
  const rows = await rt.list();
  assert.deepEqual(rows.map((r) => [r.path.join("/"), r.state]), [["parent", "running"], ["parent/child", "running"]]);
  await rt.close(rows[0].id, { force: true });
  const res = await running;
  assert.ok(["closed", "interrupted"].includes(res.status), res.status);
  const after = await rt.list();
  assert.deepEqual(after.map((r) => r.state), ["closed", "closed"]);
  assert.deepEqual(closedOrder, ["parent/child", "parent"]);
  b.release();
  await rt.release();
});

test("an aborted signal interrupts agent.run", T, async () => {
  const b = blocker();
  const solo = tnx.createAgent({ name: "solo", tools: [b.tool] });
  const ctrl = new AbortController();
  const p = solo.run("go", { signal: ctrl.signal, generate: async () => ({ toolCalls: [{ name: "slow", arguments: {} }] }) });
  await b.began;
  ctrl.abort();
  const res = await p;
  assert.equal(res.status, "interrupted");
  b.release();
});

test("the default build says that agents need the tools build", T, async () => {
  const script = `const m = await import(${JSON.stringify(pathToFileURL(join(WEB, "toolnexus.mjs")).href)});
    const tnx = await m.load({ wasm: ${JSON.stringify(join(WEB, "toolnexus.wasm"))} });
    try { tnx.createAgent({ name: "a" }); console.log("no error"); } catch (e) { console.log(e.message); }`;
  const { stdout } = await promisify(execFile)(process.execPath, ["--input-type=module", "-e", script], { timeout: 20_000 });
  assert.match(stdout, /agents need the tools build.*toolnexus-tools\.wasm/);
});

test("onStream and onMetric carry the asking agent's path; onEvent reports each transition", T, async () => {
  const { support } = team({ billingWaitFor: (req) => tnx.answerOutput(req.id, "ok") });
  const stream = [], metrics = [], events = [];
  const res = await support.run("review order 5", {
    generate: teamModel(), onStream: (e) => stream.push(e), onMetric: (m) => metrics.push(m), onEvent: (e) => events.push(e),
  });
  assert.equal(res.status, "done");
  const refundCall = stream.find((e) => e.type === "tool_call" && e.name === "refund");
  assert.ok(refundCall, JSON.stringify(stream.map((e) => e.type)));
  assert.deepEqual(refundCall.path, ["support", "billing"]);
  assert.match(refundCall.handle, /^root\/support\.\d+\/billing\.\d+$/);
  const taskCall = stream.find((e) => e.type === "tool_call" && e.name === "task");
  assert.deepEqual(taskCall.path, ["support"]);
  const text = stream.filter((e) => e.type === "text" && e.path.length === 1).map((e) => e.delta).join("");
  assert.equal(text, res.text, "support's streamed text is its answer");
  const refundMetric = metrics.find((m) => m.kind === "tool" && m.tool === "refund");
  assert.deepEqual(refundMetric?.path, ["support", "billing"]);
  assert.ok(metrics.some((m) => m.kind === "llm" && m.path.join("/") === "support"));
  const kinds = new Set(events.map((e) => `${e.type}:${e.path.join("/")}`));
  for (const k of ["spawned:support/billing", "suspended:support/billing", "resumed:support/billing", "settled:support/billing", "closed:support/billing"]) {
    assert.ok(kinds.has(k), `${k} in ${[...kinds].join(", ")}`);
  }
});

test("over HTTP (a provider at baseURL): the key goes to the provider only, never into the snapshot", T, async () => {
  const mock = await startMockLLM({ script: [
    { toolCalls: [{ name: "task", args: { agent: "billing", prompt: "refund order 3" } }] }, // support
    { toolCalls: [{ name: "refund", args: { order: "3" } }] },                                // billing
    (req) => ({ text: `billing: ${toolResultsOf(req)[0].content}` }),                         // billing, after the answer
    (req) => ({ text: `support: ${toolResultsOf(req)[0].content}` }),                         // support
  ] });
  try {
    const { support, runs } = team();
    const model = { baseURL: mock.url, style: "openai", model: "m", apiKey: "sk-agents-secret" };
    const res = await support.run("review order 3", model);
    assert.equal(res.status, "pending", res.text);
    const snap = await res.runtime.snapshot();
    await res.runtime.release();
    assert.doesNotMatch(snap, /sk-agents-secret/);
    const rt = await tnx.restoreRuntime({ ...model, agent: support }, snap);
    const done = await rt.resume(tnx.answerOutput(res.pending.id, "go"));
    await rt.release();
    assert.equal(done.text, "support: billing: refunded order 3");
    assert.deepEqual(runs, ["3"]);
    assert.equal(mock.requests.length, 4);
    for (const r of mock.requests) assert.equal(r.headers.authorization, "Bearer sk-agents-secret");
    // Each agent sees only its own tools: support the task tool, billing refund.
    assert.deepEqual(mock.requests.map((r) => r.body.tools.map((t) => t.function.name).join()), ["task", "refund", "refund", "task"]);
  } finally {
    await mock.close();
  }
});

test("an aborted run closes its open dialog (the waitFor's signal aborts); so does release", T, async () => {
  const { support, runs } = team();
  const opened = [];
  const aborted = [];
  const waitFor = (req, { signal }) => new Promise((resolve) => {
    opened.push(req.id);
    signal.addEventListener("abort", () => { aborted.push(req.id); resolve(tnx.answerDeclined(req.id, "closed")); });
  });
  const rt = await tnx.createRuntime({ agent: support, generate: teamModel(), waitFor });
  const ctrl = new AbortController();
  const p = rt.run("review order 11", { signal: ctrl.signal });
  while (opened.length === 0) await new Promise((r) => setTimeout(r, 5));
  ctrl.abort();
  const res = await p;
  assert.equal(res.status, "interrupted", JSON.stringify(res));
  assert.deepEqual(aborted, opened, "the run's dialog was told to close before release");
  assert.deepEqual(runs, []);
  // A dialog still open when the runtime is released closes too.
  const p2 = rt.run("review order 12");
  while (opened.length === 1) await new Promise((r) => setTimeout(r, 5));
  await rt.release();
  assert.deepEqual(aborted, opened);
  await p2.catch(() => {});
  assert.deepEqual(runs, []);
});

test("close of a handle whose dialog is open returns and withdraws the question", T, async () => {
  const { support, runs } = team();
  const opened = [], aborted = [];
  const rt = await tnx.createRuntime({
    agent: support, generate: teamModel(),
    waitFor: (req, { signal }) => new Promise((resolve) => {
      opened.push(req.id);
      signal.addEventListener("abort", () => { aborted.push(req.id); resolve(tnx.answerDeclined(req.id, "withdrawn")); });
    }),
  });
  const p = rt.run("review order 13");
  while (opened.length === 0) await new Promise((r) => setTimeout(r, 5));
  const [top] = await rt.list();
  await rt.close(top.id);
  assert.deepEqual(aborted, opened);
  // A graceful close lets support's turn finish with billing's withdrawn result.
  const res = await p;
  assert.match(res.text, /billing says: \[(closed|interrupted)\]/, JSON.stringify(res));
  assert.deepEqual((await rt.list()).map((r) => r.state), ["closed", "closed"]);
  assert.deepEqual(runs, []);
  await rt.release();
});
