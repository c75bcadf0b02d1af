// worker-survive.test.mjs — runs that survive (issue 31): a durable run is run
// by its RunLog Durable Object, continued by the object's alarm after the
// Worker stops, and no approved call runs twice. Each test stops workerd
// (Miniflare's dispose: the process ends) at one step of a run and starts it
// again on the same persisted storage, then checks that the run ended on its
// own (or asks whether the call happened), that the counted side effect
// happened at most once, and that the event log has no gap and no duplicate.
//
//   cd tests && timeout 900 node --test --test-force-exit worker-survive.test.mjs
//
// The model (mock-llm.mjs under one rule): "charge order N" → charge
// {order: "N"}; "charge idem order N" → charge_idem; a tool result → "done:
// <output>"; "slow hello" → waits past 30 s, then "hello"; anything else →
// "hello". A test can hold the next model call (holdModel) and the charge
// service's next request (holdCharge) until it lets go or the Worker stops.
// The charge service is the Worker's HTTP_TOOLS: charge (needs approval) and
// charge_idem (needs approval, idempotent under Idempotency-Key).

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { startMockLLM, toolResultsOf } from "./mock-llm.mjs";
import { startWorker } from "./worker-harness.mjs";

const SECRET = "survive-state-secret-0123456789abcdef";
const T = { timeout: 180_000 };

let mock, dir, base, worker;
const holds = { model: [], charge: [] };
// jitter, when on, makes the model and the charge service take 0-300 ms
// each, so that a stop lands in the middle of steps.
let jitter = false;
const pause = () => (jitter ? sleep(Math.floor(Math.random() * 300)) : null);
const charges = []; // every request the charge service received: {tool, order, key}

// hold makes the next request of kind (that match accepts, given the
// request) wait: it returns {arrived, release}.
function hold(kind, match = () => true) {
  let arrive, release;
  const h = { match, arrived: new Promise((ok) => { arrive = ok; }), released: new Promise((ok) => { release = ok; }) };
  h.arrive = arrive;
  h.release = release;
  holds[kind].push(h);
  return h;
}

const taken = []; // holds whose request came

async function held(kind, request) {
  const i = holds[kind].findIndex((h) => h.match(request));
  if (i < 0) return;
  const [h] = holds[kind].splice(i, 1);
  taken.push(h);
  h.arrive();
  await h.released;
}

function reply(request) {
  const messages = request.body?.messages ?? [];
  const last = messages.at(-1) ?? {};
  const results = toolResultsOf({ body: { messages: [last] } });
  if (results.length) return { text: "done: " + results.map((r) => r.content).join("; ") };
  const prompt = typeof last.content === "string" ? last.content : "";
  const charge = prompt.match(/charge (idem )?order (\d+)/);
  if (charge) return { toolCalls: [{ name: charge[1] ? "charge_idem" : "charge", args: { order: charge[2] } }] };
  return { text: "hello" };
}

const chargeTool = (tool) => async (args, { headers }) => {
  charges.push({ tool, order: args.order, key: headers["idempotency-key"] ?? null });
  await pause();
  await held("charge", args);
  return `charged order ${args.order}`;
};

before(async () => {
  const script = new Proxy([], {
    get: (t, k) => (typeof k === "string" && /^\d+$/.test(k) ? async (request) => {
      const prompt = request.body?.messages?.at(-1)?.content;
      if (prompt === "slow hello") await sleep(31_000);
      await pause();
      await held("model", request);
      return reply(request);
    } : t[k]),
  });
  mock = await startMockLLM({ script, tools: { charge: chargeTool("charge"), charge_idem: chargeTool("charge_idem") } });
  const schema = { type: "object", properties: { order: { type: "string" } }, required: ["order"] };
  base = {
    LLM_BASE_URL: `${mock.url}/v1`, LLM_MODEL: "mock-model", LLM_API_KEY: "sk-survive-0123", STATE_SECRET: SECRET,
    HTTP_TOOLS: JSON.stringify([
      { name: "charge", description: "Charge an order.", url: `${mock.url}/tools/charge`, method: "POST", inputSchema: schema, needsApproval: true, resultMode: "text" },
      { name: "charge_idem", description: "Charge an order, once per key.", url: `${mock.url}/tools/charge_idem`, method: "POST", inputSchema: schema, needsApproval: true, idempotent: true },
    ]),
  };
  dir = await mkdtemp(join(tmpdir(), "tn-survive-"));
  worker = await startWorker(base, { persist: dir });
});

after(async () => {
  await worker?.dispose().catch(() => {});
  await mock?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

// restart stops workerd and starts it again on the same storage, with env
// over the base settings; it returns when the new one serves.
async function restart(env = {}) {
  await worker.dispose();
  // The requests held now were the stopped Worker's: let them go, now that
  // nothing can read their answers. Holds still waiting for a request are
  // for the next Worker.
  for (const h of taken) h.release();
  taken.length = 0;
  worker = await startWorker({ ...base, ...env }, { persist: dir });
  return Date.now();
}

async function call(method, path, body) {
  return worker.call(method, path, body === undefined ? {} : { body });
}

async function start(prompt) {
  const res = await call("POST", "/v1/runs", { prompt });
  assert.equal(res.status, 202, res.text);
  return res.json.id;
}

// until polls GET /v1/runs/{id} until pred holds.
async function until(id, pred, ms = 60_000) {
  const end = Date.now() + ms;
  for (;;) {
    const res = await call("GET", `/v1/runs/${id}`);
    assert.equal(res.status, 200, res.text);
    if (pred(res.json)) return res.json;
    assert.ok(Date.now() < end, `run ${id} stayed ${res.text}`);
    await sleep(50);
  }
}

// logged waits for a line of the Worker's output.
async function logged(re, ms = 30_000) {
  const end = Date.now() + ms;
  while (!worker.output.join("").match(re)) {
    assert.ok(Date.now() < end, `the Worker never logged ${re}`);
    await sleep(25);
  }
}

const linkPath = (url) => { const u = new URL(url); return u.pathname + u.search; };

async function answer(pending, body) {
  const res = await call("POST", linkPath(pending.approveURL), body);
  assert.equal(res.status, 200, res.text);
  return res.json;
}

// readEvents reads a run's event log, from after lastEventId, until done or error.
async function readEvents(id, lastEventId) {
  const res = await fetch(new URL(`/v1/runs/${id}/events`, worker.url), { headers: lastEventId ? { "last-event-id": String(lastEventId) } : {} });
  assert.equal(res.status, 200);
  const events = [];
  for (const block of (await res.text()).split("\n\n")) {
    const e = {};
    for (const line of block.split("\n")) {
      if (line.startsWith("id: ")) e.id = Number(line.slice(4));
      else if (line.startsWith("event: ")) e.event = line.slice(7);
      else if (line.startsWith("data: ")) e.data = JSON.parse(line.slice(6));
    }
    if (e.event) events.push(e);
  }
  return events;
}

// checkLog holds the event log's promise: ids 1…n, each once, ending in
// done (or error), and a watcher that reconnects with Last-Event-ID sees
// exactly the rest.
async function checkLog(id) {
  const all = await readEvents(id);
  assert.deepEqual(all.map((e) => e.id), all.map((_, i) => i + 1), `event ids ${all.map((e) => e.id)}`);
  assert.ok(["done", "error"].includes(all.at(-1).event), `last event ${all.at(-1)?.event}`);
  const mid = Math.floor(all.length / 2);
  const rest = await readEvents(id, mid);
  assert.deepEqual(rest, all.slice(mid));
  return all;
}

const count = (order, tool = "charge") => charges.filter((c) => c.order === order && c.tool === tool).length;

// stoppedDuringCharge starts a run of prompt, approves its charge and stops
// the Worker while the charge service holds the call; it returns the run id.
async function stoppedDuringCharge(prompt) {
  const id = await start(prompt);
  const pending = (await until(id, (s) => s.status === "pending")).pending;
  const h = hold("charge");
  await answer(pending, { ok: true });
  await h.arrived; // the charge is under way
  await restart();
  return id;
}

test("stopped during a model call: the call is made again, the step shows the attempt", T, async () => {
  const h = hold("model");
  const id = await start("charge order 101");
  await h.arrived;
  const st = await until(id, (s) => s.step.kind === "model");
  assert.deepEqual({ turn: st.step.turn, attempt: st.step.attempt }, { turn: 1, attempt: 1 });
  assert.match(st.progressAt, /^\d{4}-\d\d-\d\dT/);
  const again = hold("model");
  await restart();
  await again.arrived; // the executor called the model again, on its own
  const retry = await until(id, (s) => s.step.attempt === 2);
  assert.equal(retry.step.kind, "model");
  again.release();
  const pending = (await until(id, (s) => s.status === "pending")).pending;
  assert.equal(pending.tool, "charge");
  await answer(pending, { ok: true });
  const done = await until(id, (s) => s.status === "done");
  assert.equal(done.text, 'done: {"output":"charged order 101"}');
  assert.equal(count("101"), 1);
  await checkLog(id);
});

test("stopped between the model's reply and the tool: the run goes on to its approval", T, async () => {
  await restart({ TOOLNEXUS_TEST_HOOKS: "1", TOOLNEXUS_TEST_PAUSE: "after:turn" });
  const id = await start("charge order 102");
  await logged(new RegExp(`run ${id} held after:turn`));
  await restart();
  const pending = (await until(id, (s) => s.status === "pending")).pending;
  assert.equal(count("102"), 0);
  await answer(pending, { ok: true });
  await until(id, (s) => s.status === "done");
  assert.equal(count("102"), 1);
  await checkLog(id);
});

test("stopped while the run waits for approval: the link still works, the call runs once", T, async () => {
  const id = await start("charge order 103");
  const pending = (await until(id, (s) => s.status === "pending")).pending;
  await restart();
  assert.equal((await until(id, (s) => s.status === "pending")).pending.id, pending.id);
  await answer(pending, { ok: true });
  await until(id, (s) => s.status === "done");
  assert.equal(count("103"), 1);
  await checkLog(id);
});

test("stopped during the resume, before the approved call began: it runs once, nobody is asked", T, async () => {
  await restart({ TOOLNEXUS_TEST_HOOKS: "1", TOOLNEXUS_TEST_PAUSE: "before:call" });
  const id = await start("charge order 104");
  const pending = (await until(id, (s) => s.status === "pending")).pending;
  await answer(pending, { ok: true });
  await logged(new RegExp(`run ${id} held before:call`));
  await restart();
  const done = await until(id, (s) => s.status === "done");
  assert.equal(done.text, 'done: {"output":"charged order 104"}');
  assert.equal(count("104"), 1);
  await checkLog(id);
});

test("stopped during an approved call: the person is asked whether it happened, and it never runs twice", T, async () => {
  const id = await start("charge order 105");
  const pending = (await until(id, (s) => s.status === "pending")).pending;
  const h = hold("charge");
  await answer(pending, { ok: true });
  await h.arrived; // the charge is under way
  assert.equal((await call("GET", `/v1/runs/${id}`)).json.step.tool, "charge");
  await restart();
  const asked = (await until(id, (s) => s.status === "pending" && s.pending.kind === "outcome_unknown")).pending;
  assert.equal(asked.tool, "charge");
  assert.deepEqual(asked.args, { order: "105" });
  assert.match(asked.request.prompt, /charge \{"order":"105"\} was running when the run stopped: did it happen\?/);
  assert.equal(count("105"), 1);
  // The page's JSON says what is asked, and an edit is no answer to it.
  const view = await call("GET", linkPath(asked.approveURL) + "&view=json");
  assert.equal(view.json.request.kind, "outcome_unknown");
  assert.equal((await call("POST", linkPath(asked.approveURL), { ok: true, args: { order: "1" } })).status, 400);
  await answer(asked, { ok: true, outcome: "happened", output: "charged order 105 (seen in the ledger)" });
  const done = await until(id, (s) => s.status === "done");
  assert.equal(done.text, "done: charged order 105 (seen in the ledger)");
  assert.equal(count("105"), 1);
  const events = await checkLog(id);
  const result = events.find((e) => e.data?.type === "tool_result");
  assert.equal(result.data.recorded, true);
  assert.deepEqual(events.filter((e) => e.event === "answer").map((e) => e.data.decision), ["approved", "happened"]);
});

test("asked after a stop, 'run it again' runs the approved call once more; 'not done' tells the model", T, async () => {
  const id = await stoppedDuringCharge("charge order 106");
  const asked = (await until(id, (s) => s.pending?.kind === "outcome_unknown")).pending;
  await answer(asked, { ok: true, outcome: "rerun" });
  await until(id, (s) => s.status === "done");
  assert.equal(count("106"), 2); // the person chose to run it again
  await checkLog(id);

  const id2 = await stoppedDuringCharge("charge order 107");
  const asked2 = (await until(id2, (s) => s.pending?.kind === "outcome_unknown")).pending;
  await answer(asked2, { ok: false, reason: "not in the ledger" });
  const done = await until(id2, (s) => s.status === "done");
  assert.match(done.text, /recorded it as not done: not in the ledger/);
  assert.equal(count("107"), 1);
});

test("stopped during an idempotent approved call: it runs again with the same Idempotency-Key, unasked", T, async () => {
  const id = await stoppedDuringCharge("charge idem order 108");
  const done = await until(id, (s) => s.status === "done");
  assert.equal(done.text, 'done: {"output":"charged order 108"}');
  const calls = charges.filter((c) => c.order === "108");
  assert.equal(calls.length, 2);
  assert.match(calls[0].key, new RegExp(`^${id}:`));
  assert.equal(calls[1].key, calls[0].key);
  await checkLog(id);
});

test("stopped right after the approved call finished, before its outcome was recorded: asked, not run again", T, async () => {
  await restart({ TOOLNEXUS_TEST_HOOKS: "1", TOOLNEXUS_TEST_PAUSE: "before:outcome" });
  const id = await start("charge order 109");
  const pending = (await until(id, (s) => s.status === "pending")).pending;
  await answer(pending, { ok: true });
  await logged(new RegExp(`run ${id} held before:outcome`));
  await restart();
  const asked = (await until(id, (s) => s.pending?.kind === "outcome_unknown")).pending;
  assert.equal(count("109"), 1);
  await answer(asked, { ok: true, outcome: "happened", output: "charged order 109" });
  await until(id, (s) => s.status === "done");
  assert.equal(count("109"), 1);
  await checkLog(id);
});

test("stopped right after the outcome was recorded: the run ends on its own, the call ran once", T, async () => {
  await restart({ TOOLNEXUS_TEST_HOOKS: "1", TOOLNEXUS_TEST_PAUSE: "after:outcome" });
  const id = await start("charge order 110");
  const pending = (await until(id, (s) => s.status === "pending")).pending;
  await answer(pending, { ok: true });
  await logged(new RegExp(`run ${id} held after:outcome`));
  await restart();
  const done = await until(id, (s) => s.status === "done");
  assert.equal(done.text, 'done: {"output":"charged order 110"}');
  assert.equal(count("110"), 1);
  await checkLog(id);
});

test("a run whose executor makes no progress ends with an error every watcher sees", { timeout: 120_000 }, async () => {
  await restart({ TOOLNEXUS_TEST_HOOKS: "1", TOOLNEXUS_TEST_PAUSE: "stall" });
  const id = await start("charge order 120");
  // Five lives that record nothing, with backoff (2, 4, 8, 16 s), then the end.
  const st = await until(id, (s) => s.status !== "running", 90_000);
  assert.equal(st.status, "error");
  assert.equal(st.error.code, "run_stalled");
  assert.match(st.error.message, /made no progress in 5 tries/);
  const events = await checkLog(id);
  assert.equal(events.at(-1).event, "error");
  await restart();
});

test("a run whose model call takes longer than 30 s completes", { timeout: 120_000 }, async () => {
  const id = await start("slow hello");
  const done = await until(id, (s) => s.status === "done", 90_000);
  assert.equal(done.text, "hello");
  await checkLog(id);
});

test("50 runs stopped at random points: none left running, no effect twice; the recovery time", { timeout: 600_000 }, async () => {
  const runs = []; // {id, order, wasRunning, recovered}
  const recovery = [];
  let order = 500;
  jitter = true;
  for (let round = 0; runs.length < 50; round++) {
    // Five runs in flight at once, at random stages, then the Worker stops.
    const batch = [];
    for (let i = 0; i < 5; i++) {
      const o = String(order++);
      const id = await start(`charge order ${o}`);
      batch.push({ id, order: o });
      runs.push(batch.at(-1));
    }
    await Promise.all(batch.map(async (r) => {
      if (Math.random() < 0.2) return; // some are stopped before the model replied
      const st = await until(r.id, (s) => s.status === "pending");
      if (Math.random() < 0.2) return; // waiting for approval when stopped
      await answer(st.pending, { ok: true });
    }));
    await sleep(Math.floor(Math.random() * 400));
    for (const r of batch) r.wasRunning = (await call("GET", `/v1/runs/${r.id}`)).json.status === "running";
    const restarted = await restart();
    // Each run now goes on by itself; answer what it asks, timing each.
    await Promise.all(batch.map(async (r) => {
      for (;;) {
        const st = await until(r.id, (s) => s.status !== "running", 60_000);
        if (!r.recovered && r.wasRunning) {
          r.recovered = true; // running when stopped: how long until it halted or ended again
          recovery.push(Date.now() - restarted);
        }
        if (st.status === "done") return;
        assert.equal(st.status, "pending", JSON.stringify(st));
        if (st.pending.kind === "outcome_unknown") {
          await answer(st.pending, count(r.order) === 1 ? { ok: true, outcome: "happened", output: "charged" } : { ok: false, reason: "no charge seen" });
        } else {
          await answer(st.pending, { ok: true });
        }
      }
    }));
  }
  jitter = false;
  const running = [];
  for (const r of runs) {
    const st = (await call("GET", `/v1/runs/${r.id}`)).json;
    if (st.status !== "done") running.push(r.id);
    assert.ok(count(r.order) <= 1, `order ${r.order} was charged ${count(r.order)} times`);
  }
  assert.deepEqual(running, []);
  recovery.sort((a, b) => a - b);
  const median = recovery[Math.floor(recovery.length / 2)];
  console.log(`# recovery after a restart: ${recovery.length} of ${runs.length} runs were running when the Worker stopped; from the new Worker serving to each halting or ending again: median ${median} ms, max ${recovery.at(-1)} ms`);
});

// transcriptHas is a model request whose messages mention text.
const transcriptHas = (text) => (request) => JSON.stringify(request.body?.messages ?? []).includes(text);

test("/v1/resume cut off after its token was spent, during the approved call and after it: a retry says what happened", { timeout: 180_000 }, async () => {
  const halt = async (order) => {
    const res = await call("POST", "/v1/run", { prompt: `charge order ${order}` });
    assert.equal(res.json.status, "pending", res.text);
    return res.json;
  };
  const a = await halt("301"); // stopped during its charge
  const b = await halt("302"); // stopped after its charge, during the next model call
  const holdA = hold("charge", (args) => args.order === "301");
  const holdB = hold("model", transcriptHas("charged order 302"));
  const resume = (st, answer) => call("POST", "/v1/resume", { state: st.state, answer: { id: st.pending.id, ...answer } });
  const cutA = resume(a, { ok: true }).catch((err) => err);
  const cutB = resume(b, { ok: true }).catch((err) => err);
  await Promise.all([holdA.arrived, holdB.arrived]);
  await restart();
  await Promise.all([cutA, cutB]);
  // At once: the stopped resumes' leases have not lapsed yet.
  const early = await resume(a, { ok: true });
  assert.equal(early.status, 409, early.text);
  assert.match(early.json.error.message, /still running/);
  const wait = Number(early.headers.get("retry-after"));
  assert.ok(wait > 0 && wait <= 30);
  await sleep(wait * 1000 + 500);
  // A: the charge's outcome was lost: asked, under a new state token.
  const againA = await resume(a, { ok: true });
  assert.equal(againA.status, 200, againA.text);
  assert.equal(againA.json.status, "pending");
  assert.equal(againA.json.pending.kind, "outcome_unknown");
  assert.deepEqual(againA.json.pending.data.args, { order: "301" });
  assert.equal(count("301"), 1);
  // B: the charge's outcome was recorded: the model is asked again, done.
  const againB = await resume(b, { ok: true });
  assert.equal(againB.status, 200, againB.text);
  assert.equal(againB.json.status, "done");
  assert.equal(againB.json.text, 'done: {"output":"charged order 302"}');
  assert.equal(count("302"), 1);
  // Both tokens are used up now: 409, nothing runs.
  for (const st of [a, b]) assert.equal((await resume(st, { ok: true })).status, 409);
  // The question about 301, answered: it happened.
  const done = await call("POST", "/v1/resume", { state: againA.json.state, answer: { id: againA.json.pending.id, ok: true, data: { outcome: "happened", output: "charged order 301 (seen in the ledger)" } } });
  assert.equal(done.status, 200, done.text);
  assert.equal(done.json.status, "done");
  assert.equal(done.json.text, "done: charged order 301 (seen in the ledger)");
  assert.equal(count("301"), 1);
});
