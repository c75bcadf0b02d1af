// worker-agents.test.mjs — agent teams on the Worker (issue 18) end to end on
// workerd (Miniflare), against the open-ended mock model (worker-mock.mjs: the
// support agent's "review order 42" becomes a task for billing, billing's
// "refund order 42" a refund call, a tool result "done: <output>"). Run after
// ./build.sh worker:
//
//   cd tests && timeout 600 node --test --test-force-exit worker-agents.test.mjs
//
// Workers:
//   main    AGENTS exactly as the README declares it (a JSON var, as in
//           wrangler.jsonc), the APPROVALS Durable Object bound
//   text    the same team as a string var, tokens live 2 s
//   broken  AGENTS with two typos: an undeclared team member, a tool the
//           Worker does not offer
//   noledger the team without the APPROVALS binding
// The halted tree is looked at in the Durable Object itself (w.ledger(id).tree).

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { toolResultsOf } from "./mock-llm.mjs";
import { startWorkerMock } from "./worker-mock.mjs";
import { startWorker } from "./worker-harness.mjs";

const KEY = "sk-agents-provider-key-31c9";
const SECRET = "agents-state-secret-0123456789abcdef";
const T = { timeout: 120_000 };

// readmeAgents is the AGENTS value of the README's Worker example.
function readmeAgents() {
  const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
  const m = readme.match(/<!-- readme-test: worker-agents -->\n```jsonc\n"AGENTS": ([\s\S]*?)\n```/);
  assert.ok(m, "README has no worker-agents example");
  return JSON.parse(m[1]);
}

let mock;
const workers = {};

before(async () => {
  mock = await startWorkerMock();
  const base = { LLM_BASE_URL: `${mock.url}/v1`, LLM_MODEL: "mock-model", LLM_API_KEY: KEY, STATE_SECRET: SECRET };
  const agents = readmeAgents();
  workers.main = await startWorker({ ...base, AGENTS: agents });
  workers.text = await startWorker({ ...base, AGENTS: JSON.stringify(agents), STATE_TTL_SECONDS: "2" });
  workers.broken = await startWorker({ ...base, AGENTS: JSON.stringify([{ name: "support", team: ["biling"] }, { name: "billing", tools: ["refnd"] }]) });
  workers.noledger = await startWorker({ ...base, AGENTS: agents }, { approvals: false });
});

after(async () => {
  for (const w of Object.values(workers)) await w.dispose().catch(() => {});
  await mock?.close();
});

async function call(worker, method, path, body) {
  const res = await workers[worker].call(method, path, body === undefined ? {} : { body });
  for (const s of [KEY, SECRET]) assert.ok(!res.text.includes(s), `${path} returned a secret`);
  return res;
}

const run = (worker, body = { prompt: "review order 42", agent: "support" }) => call(worker, "POST", "/v1/run", body);
const resume = (worker, state, answer) => call(worker, "POST", "/v1/resume", { state, answer });

// stateID reads the id out of a token (it is signed, not encrypted).
const stateID = (token) => JSON.parse(Buffer.from(token.split(".")[1], "base64url").toString()).id;
const stateExp = (token) => JSON.parse(Buffer.from(token.split(".")[1], "base64url").toString()).exp;

// storedTree is what the APPROVALS object of the token holds of its tree.
async function storedTree(worker, token) {
  const id = stateID(token);
  const ledger = await workers[worker].ledger(id);
  return JSON.parse(JSON.stringify(await ledger.tree(id)));
}

// halt runs support until billing's refund asks for approval.
async function halt(worker = "main") {
  const res = await run(worker);
  assert.equal(res.status, 200, res.text);
  const body = res.json;
  assert.equal(body.status, "pending", res.text);
  assert.equal(body.agent, "support");
  assert.deepEqual(body.path, ["support"]);
  assert.deepEqual(body.pending.data.path, ["support", "billing"]);
  assert.equal(body.pending.data.tool, "refund");
  assert.deepEqual(body.pending.data.args, { order: 42 });
  assert.match(body.pending.data.handle, /^root\/support\.\d+\/billing\.\d+$/);
  assert.match(body.state, /^tn1\./);
  assert.deepEqual(body.agents.map((a) => [a.path.join("/"), a.state]), [["support", "suspended"], ["support/billing", "suspended"]]);
  return body;
}

// refunds counts the refund outputs the model was shown in requests[from:].
const refunds = (from) => mock.requests.slice(from).flatMap((r) => toolResultsOf(r)).filter((t) => t.content === "refunded order 42").length;

test("support → billing → refund halts with the path; approve → the refund runs once, support answers, the tree is deleted", T, async () => {
  const from = mock.requests.length;
  const h = await halt();
  assert.equal(refunds(from), 0);
  const tree = await storedTree("main", h.state);
  assert.ok(tree && tree.chars > 100, `the halted tree is not in the Durable Object: ${JSON.stringify(tree)}`);
  assert.equal(tree.untilMs, (stateExp(h.state) + 60) * 1000, "kept until the token's expiry plus the ledger's minute");
  // The token itself carries no transcript: the tree is in the object.
  assert.ok(h.state.length < tree.chars, `token ${h.state.length} chars, tree ${tree.chars}`);

  const res = await resume("main", h.state, { id: h.pending.id, ok: true });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.json.status, "done", res.text);
  assert.equal(res.json.agent, "support");
  assert.equal(res.json.text, "done: done: refunded order 42");
  assert.equal(res.json.state, undefined);
  assert.equal(refunds(from), 1, "billing saw the refund's output once");
  assert.equal(await storedTree("main", h.state), null, "the tree outlived the run");

  const again = await resume("main", h.state, { id: h.pending.id, ok: true });
  assert.equal(again.status, 409, again.text);
  assert.equal(again.json.error.code, "state_spent");
  assert.equal(refunds(from), 1, "a reused token ran the refund again");
});

test("decline → billing reads the refusal and reports it, support answers; nothing refunded", T, async () => {
  const from = mock.requests.length;
  const h = await halt();
  const reason = "order 42 is past the refund window";
  const res = await resume("main", h.state, { id: h.pending.id, ok: false, reason });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.json.status, "done");
  // billing's answer quotes the declined tool result; support's wraps billing's.
  assert.match(res.json.text, /^done: done: .*declined.*past the refund window/);
  const billingSaw = mock.requests.slice(from).flatMap((r) => toolResultsOf(r)).find((t) => t.content.includes(reason));
  assert.ok(billingSaw, "the model never saw the reason");
  assert.equal(refunds(from), 0);
  assert.equal(await storedTree("main", h.state), null);
});

test("8 concurrent resumes of one team token: exactly one runs", T, async () => {
  const from = mock.requests.length;
  const h = await halt();
  const results = await Promise.all(Array.from({ length: 8 }, () => resume("main", h.state, { id: h.pending.id, ok: true })));
  assert.deepEqual(results.map((r) => r.status).sort(), [200, 409, 409, 409, 409, 409, 409, 409], results.map((r) => r.text).join("\n"));
  for (const r of results.filter((r) => r.status === 409)) assert.equal(r.json.error.code, "state_spent");
  assert.equal(refunds(from), 1);
  assert.equal(await storedTree("main", h.state), null);
});

test("streamed: agent events carry each agent's path, done carries the pending request and the token", T, async () => {
  const res = await workers.main.call("POST", "/v1/run", { body: { prompt: "review order 42", agent: "support", stream: true } });
  assert.equal(res.status, 200, res.text);
  assert.match(res.headers.get("content-type"), /^text\/event-stream/);
  const events = [...res.text.matchAll(/event: (\S+)\ndata: (.*)\n\n/g)].map((m) => ({ type: m[1], data: JSON.parse(m[2]) }));
  const agentEvents = events.filter((e) => e.type === "agent").map((e) => `${e.data.type} ${e.data.path.join("/")}`);
  for (const want of ["spawned support", "spawned support/billing", "suspended support/billing"]) {
    assert.ok(agentEvents.includes(want), `no "${want}" in ${agentEvents.join(", ")}`);
  }
  // core's stream events of each agent's turns carry that agent's path.
  const calls = events.filter((e) => e.type === "tool_call").map((e) => `${e.data.path.join("/")} ${e.data.name} ${e.data.args}`);
  assert.deepEqual(calls, ['support task {"agent":"billing","prompt":"refund order 42"}', 'support/billing refund {"order":42}']);
  const done = events.at(-1);
  assert.equal(done.type, "done");
  assert.deepEqual(done.data.pending.data.path, ["support", "billing"]);
  // One request, one pending event — from the agent that asked (issue 26).
  const pending = events.filter((e) => e.type === "pending");
  assert.deepEqual(pending.map((e) => [e.data.request.id, e.data.path]), [[done.data.pending.id, ["support", "billing"]]]);
  const resumed = await resume("main", done.data.state, { id: done.data.pending.id, ok: false, reason: "no" });
  assert.equal(resumed.status, 200, resumed.text);
  const metrics = await call("main", "GET", "/metrics");
  assert.match(metrics.text, /toolnexus_worker_agent_events_total\{path="support\/billing",kind="llm"\} \d+/);
});

test("AGENTS as a string var works the same; an expired team token is refused and its tree deleted by the alarm", T, async () => {
  const h = await halt("text");
  assert.ok(await storedTree("text", h.state));
  // The Worker keeps the tree until the token's expiry plus a minute; the
  // object's alarm deletes a tree past its time (probed with a short one).
  const probe = await workers.text.ledger("st_probe_tree");
  await probe.putTree("st_probe_tree", "{\"version\":1}", Date.now() + 300);
  assert.notEqual(await probe.tree("st_probe_tree"), null);
  await sleep(1500);
  assert.equal(await probe.tree("st_probe_tree"), null, "the expired tree is still there");
  await sleep(Math.max(0, stateExp(h.state) * 1000 - Date.now()) + 200);
  const late = await resume("text", h.state, { id: h.pending.id, ok: true });
  assert.equal(late.status, 400, late.text);
  assert.equal(late.json.error.code, "state_expired");
});

test("a misconfigured AGENTS is a clear config error at once: /readyz and /v1/run name it", T, async () => {
  const ready = await call("broken", "GET", "/readyz");
  assert.equal(ready.status, 503, ready.text);
  // Every mistake at once (issue 26), as for the rest of the configuration.
  assert.deepEqual(ready.json.problems.filter((p) => p.setting === "AGENTS"), [
    { setting: "AGENTS", problem: 'agent support: team member "biling" is not declared' },
    { setting: "AGENTS", problem: 'agent billing: tool "refnd" is not offered by this Worker (GET /v1/tools lists them)' },
  ]);
  const from = mock.requests.length;
  const res = await run("broken");
  assert.equal(res.status, 500, res.text);
  assert.equal(res.json.error.code, "config");
  assert.match(res.json.error.message, /AGENTS agent support: team member "biling" is not declared; AGENTS agent billing: tool "refnd" is not offered/);
  assert.equal(mock.requests.length, from, "a misconfigured Worker called the model");
  const unknown = await run("main", { prompt: "hi", agent: "sales" });
  assert.equal(unknown.status, 400, unknown.text);
  assert.equal(unknown.json.error.code, "unknown_agent");
  assert.match(unknown.json.error.message, /declared: support, billing/);
});

test("without the APPROVALS binding a team run is refused before anything runs", T, async () => {
  const from = mock.requests.length;
  const res = await run("noledger");
  assert.equal(res.status, 503, res.text);
  assert.equal(res.json.error.code, "approvals_unavailable");
  assert.equal(mock.requests.length, from);
});
