// agents-input.test.mjs — hostile and malformed input to the agents API
// (specs, budgets, handle ids, snapshots) under Node with the tools build:
// each is a clear rejection, and the module keeps working afterwards (a
// panic in Go would have ended the wasm instance).
//
//   ./build.sh && cd tests && node --test agents-input.test.mjs

import { before, test } from "node:test";
import assert from "node:assert/strict";
import { loadToolsBuild } from "./tools-build.mjs";

const T = { timeout: 30_000 };

let tnx;
before(async () => {
  tnx = await loadToolsBuild();
});

const echo = { generate: async (req) => ({ text: `echo: ${req.messages.at(-1).content}` }) };

// stillWorks proves the wasm instance survived: a fresh agent runs.
async function stillWorks() {
  const res = await tnx.createAgent({ name: "probe" }).run("ping", echo);
  assert.equal(res.status, "done");
  assert.equal(res.text, "echo: ping");
}

test("hostile agent specs are rejected by createRuntime with the agent and field named", T, async () => {
  let deep = tnx.createAgent({ name: "a0" });
  for (let i = 1; i < 10_000; i++) deep = tnx.createAgent({ name: `a${i}`, team: [deep] });
  const cases = [
    ["a non-string name", { name: 42 }, /an agent needs a name/],
    ["a name with a slash", { name: "a/b" }, /cannot hold "\/"/],
    ["tools holding non-tools", tnx.createAgent({ name: "a", tools: [42, "refund", null] }), /agent "a": tools\[0\]: a tool must be an object/],
    ["a tool that is a plain object", tnx.createAgent({ name: "a", tools: [{ name: "x" }] }), /tool "x" needs a run function/],
    ["tools as a string (plain spec)", { name: "a", tools: "refund" }, /tools must be an array, not a string/],
    ["a team member that is a string", { name: "a", team: ["billing"] }, /a: team\[0\]: expected an agent from createAgent, got a string/],
    ["two different agents with one name", { name: "a", team: [{ name: "b" }, { name: "b", does: "x" }] }, /two different agents are named "b"/],
    ["10,000-deep team nesting", deep, /teams nest deeper than 32 levels/],
    ["a huge budget", tnx.createAgent({ name: "a", budget: { maxWallMs: 1e300 } }), /budget\.maxWallMs must be a whole number/],
    ["a negative budget", tnx.createAgent({ name: "a", budget: { maxTurns: -1 } }), /budget\.maxTurns must be a whole number/],
    ["a string budget field", tnx.createAgent({ name: "a", budget: { maxTokens: "lots" } }), /budget\.maxTokens must be a number, not a string/],
    ["does as a number", { name: "a", does: 5 }, /does must be a string/],
  ];
  for (const [what, agent, want] of cases) {
    await assert.rejects(tnx.createRuntime({ ...echo, agent }), want, what);
  }
  await stillWorks();
});

test("a team cycle builds and runs: each name is one agent", T, async () => {
  const support = { name: "support", instructions: "You are support.", team: [] };
  const billing = { name: "billing", instructions: "You are billing.", team: [support] };
  support.team.push(billing);
  const rt = await tnx.createRuntime({
    agent: support,
    generate: async (req) => {
      const sys = String(req.messages.find((m) => m.role === "system")?.content ?? "");
      const last = req.messages.at(-1);
      const enumOf = req.tools?.[0]?.function?.parameters?.properties?.agent?.enum;
      if (sys.includes("support") && last.role === "user") {
        assert.deepEqual(enumOf, ["billing"]);
        return { toolCalls: [{ name: "task", arguments: { agent: "billing", prompt: "refund" } }] };
      }
      if (sys.includes("billing")) {
        assert.deepEqual(enumOf, ["support"], "billing's team is support: the cycle");
        return { text: "billing: done" };
      }
      return { text: `support: ${last.content}` };
    },
  });
  const res = await rt.run("help");
  assert.equal(res.status, "done", res.text);
  assert.equal(res.text, "support: billing: done");
  await rt.release();
});

test("runtime verbs refuse malformed handles, budgets and timeouts", T, async () => {
  const rt = await tnx.createRuntime({ ...echo, agent: tnx.createAgent({ name: "solo" }) });
  const h = await rt.spawn(null, "solo");
  const cases = [
    ["a number as a handle", () => rt.inspect(7), /a handle is an id string/],
    ["an object as a handle", () => rt.wake({ id: h }, "x"), /a handle is an id string/],
    ["an unknown id", () => rt.interrupt("root/ghost.1"), /no handle "root\/ghost\.1"/],
    ["no handle for wait (the root)", () => rt.wait(), /the root runs no turns/],
    ["the root by name for wake", () => rt.wake("root", "x"), /the root runs no turns/],
    ["null for post", () => rt.post(null, "x"), /the root runs no turns/],
    ["an unknown agent", () => rt.spawn(null, "ghost"), /unknown agent "ghost" \(known: solo\)/],
    ["a huge spawn budget", () => rt.spawn(h, "solo", { maxChildren: 2 ** 60 }), /budget\.maxChildren/],
    ["a spawn budget that is a string", () => rt.spawn(h, "solo", "big"), /budget must be an object/],
    ["a string timeout", () => rt.wait(h, { timeoutMs: "soon" }), /timeoutMs must be a number/],
    ["a huge timeout", () => rt.wait(h, { timeoutMs: 1e300 }), /timeoutMs must be a number of milliseconds from 0/],
    ["a negative timeout", () => rt.wait(h, { timeoutMs: -5 }), /timeoutMs/],
  ];
  for (const [what, fn, want] of cases) await assert.rejects(fn(), want, what);
  assert.deepEqual(await rt.wake(h, "hi"), { ok: true });
  assert.equal((await rt.wait(h, { timeoutMs: 5000 })).text, "echo: hi");
  await rt.release();
  await stillWorks();
});

test("a released runtime refuses every verb with the reason; release again does nothing", T, async () => {
  const rt = await tnx.createRuntime({ ...echo, agent: tnx.createAgent({ name: "solo" }) });
  await rt.release();
  for (const [what, fn] of [["list", () => rt.list()], ["run", () => rt.run("x")], ["wait", () => rt.wait("root/solo.1")],
    ["spawn", () => rt.spawn(null, "solo")], ["snapshot", () => rt.snapshot()], ["resume", () => rt.resume({ id: "x", ok: true })]]) {
    await assert.rejects(fn(), /this runtime was released/, what);
  }
  await rt.release();
  await stillWorks();
});

test("malformed snapshots are rejected by restoreRuntime; the module lives on", T, async () => {
  const agent = tnx.createAgent({ name: "solo" });
  const one = (fields) => JSON.stringify({ version: 1, handles: [{ id: "root/solo.1", agent: "solo", parent: "root", state: "idle", maxTurns: 6, maxConcurrent: 8, maxDepth: 3, poolTokens: 1e9, poolToolCalls: 1e9, poolChildren: 8, ...fields }] });
  const cases = [
    ["not JSON", "{", /not valid JSON/],
    ["cut short", one({}).slice(0, 40), /not valid JSON/],
    ["an array", "[]", /not a JSON object/],
    ["a wrong version", '{"version":2}', /snapshot version 2/],
    ["handles as an object", '{"version":1,"handles":{}}', /handles that are not an array/],
    ["an id off its parent's path", one({ id: "elsewhere/solo.1" }), /handle elsewhere\/solo.1: edited or corrupt/],
    ["a zero maxConcurrent", one({ maxConcurrent: 0 }), /handle root\/solo.1: edited or corrupt/],
    ["an agent not in the registry", one({ agent: "ghost" }), /agent "ghost" is not in the registry/],
    ["a running state", one({ state: "running" }), /cannot be restored/],
    ["a string count", one({ turns: "7" }), /turns/],
  ];
  for (const [what, snap, want] of cases) {
    await assert.rejects(tnx.restoreRuntime({ ...echo, agent }, snap), want, what);
  }
  const rt = await tnx.restoreRuntime({ ...echo, agent }, one({}));
  assert.deepEqual((await rt.list()).map((r) => [r.id, r.state]), [["root/solo.1", "idle"]]);
  assert.deepEqual(await rt.wake("root/solo.1", "back"), { ok: true });
  assert.equal((await rt.wait("root/solo.1")).text, "echo: back");
  await rt.release();
  await stillWorks();
});
