// journal-api.test.mjs — journaled runs through the JS API in Node (issue 31):
// client.run / stream with {journal}, client.continue / streamContinue, the
// answers to a question about a lost outcome, idempotent tools and their
// keys, and web/browser-journal.mjs's memory fallback.
//
// A journal here is a plain object over shared storage that can be made to
// fail after N records: the run stops there, as a tab killed at that step
// would, and a continue on the same storage goes on from what was recorded.
//
//   ./build.sh && cd tests && timeout 300 node --test --test-force-exit journal-api.test.mjs

import { before, after, test } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = fileURLToPath(new URL(".", import.meta.url));
const WEB = process.env.TOOLNEXUS_WEB ?? join(process.env.TOOLNEXUS_DIST ?? join(here, "..", "dist"), "web");
const T = { timeout: 120_000 };

let tnx, mod, browserJournal, recordedEvents;
before(async () => {
  mod = await import(pathToFileURL(join(WEB, "toolnexus.mjs")).href);
  ({ browserJournal, recordedEvents } = await import(pathToFileURL(join(WEB, "browser-journal.mjs")).href));
  tnx = await mod.load({ wasm: join(WEB, "toolnexus.wasm") });
});

// testJournal is a journal over storage (shared by the journals made from
// it) whose records fail once failAfter of them have been made: "storage
// gone", not a duplicate. A duplicate key is refused as IndexedDB does.
function storage() {
  return { texts: [], keys: new Set() };
}
function testJournal(store, failAfter = Infinity) {
  let made = 0;
  return {
    store,
    load: async () => [...store.texts],
    async record(key, text) {
      if (made >= failAfter) throw new Error("storage gone");
      made++;
      if (store.keys.has(key)) throw Object.assign(new Error(`${key} is recorded already`), { name: "ConstraintError" });
      store.keys.add(key);
      store.texts.push(text);
    },
  };
}
const kinds = (store) => store.texts.map((t) => JSON.parse(t).kind);
const entries = (store) => store.texts.map((t) => JSON.parse(t));

// The model: a prompt "<tool> order N" asks for that tool; a tool result is
// answered "done: <result>".
function generate(req) {
  const last = req.messages.at(-1);
  if (last.role === "tool") return { text: `done: ${last.content}` };
  const m = String(last.content).match(/^(\w+) order (\d+)/);
  if (m) return { toolCalls: [{ id: "c1", name: m[1], arguments: { order: m[2] } }] };
  return { text: "hello" };
}

// tools counts each tool's runs and the idempotency keys they saw.
function tools() {
  const runs = { refund: [], charge: [], add: [] };
  const schema = { type: "object", properties: { order: { type: "string" } }, required: ["order"] };
  const tool = (name, opts) => tnx.defineTool({ name, inputSchema: schema, ...opts,
    run: ({ order }, ctx) => { runs[name].push(ctx.idempotencyKey); return `${name} done for order ${order}`; } });
  return {
    runs,
    list: [tool("refund", { needsApproval: true }), tool("charge", { needsApproval: true, idempotent: true }), tool("add", {})],
  };
}

// asker approves approvals and answers questions about lost outcomes with
// reply(request), counting those.
function asker(reply = (r) => tnx.answerOutcome(r.id, "seen in the ledger")) {
  const asked = [];
  const waitFor = (r) => {
    if (r.kind !== "outcome_unknown") return { id: r.id, ok: true };
    asked.push(r);
    return reply(r);
  };
  return { asked, waitFor };
}

test("a journaled run records each step; continuing an ended run runs nothing again", T, async () => {
  const t = tools();
  const tk = await tnx.createToolkit({ tools: t.list });
  const { waitFor } = asker();
  const client = await tnx.createClient({ generate, model: "m", waitFor });
  const store = storage();
  const res = await client.run("refund order 1", tk, { journal: testJournal(store) });
  assert.equal(res.status, "done");
  assert.equal(res.text, "done: refund done for order 1");
  // The approval takes effect as a decision of the record (issue 32), before the call.
  assert.deepEqual(kinds(store), ["start", "model", "turn", "suspend", "answer", "decision", "call", "outcome", "model", "turn", "end"]);
  const start = entries(store)[0];
  assert.match(start.run, /^run_/);
  assert.equal(start.prompt, "refund order 1");
  assert.deepEqual(t.runs.refund, [`${start.run}:c1`]);
  // A retried start with the same journal, and a continue: the recorded end.
  for (const again of [() => client.run("refund order 1", tk, { journal: testJournal(store) }), () => client.continue(tk, testJournal(store))]) {
    const r = await again();
    assert.equal(r.status, "done");
    assert.equal(r.text, res.text);
    assert.equal(t.runs.refund.length, 1);
  }
  assert.equal(store.texts.length, 11, "nothing recorded again");
  await client.close();
});

// cutAtEachStep runs prompt cut off after each number of records in turn,
// then continues it on the same storage, and hands what happened to check.
async function cutAtEachStep(prompt, check, { full = 11 } = {}) {
  for (let n = 1; n < full; n++) {
    const t = tools();
    const tk = await tnx.createToolkit({ tools: t.list });
    const ask = asker();
    const client = await tnx.createClient({ generate, model: "m", waitFor: ask.waitFor });
    const store = storage();
    const first = await client.run(prompt, tk, { journal: testJournal(store, n) }).then(() => null, (err) => err);
    const cut = kinds(store);
    if (n === full - 1) {
      // Only the end was not recorded: the run had its answer, and ends
      // (core does not fail a finished run over its end entry).
      assert.equal(first, null, `cut before the end: ${first?.message}`);
    } else {
      assert.ok(first, `cut after ${n} records: the run stopped`);
      assert.match(first.message, /journal|storage gone/, `cut after ${n}: ${first.message}`);
    }
    const lost = cut.includes("call") && !cut.includes("outcome"); // begun, outcome never recorded
    const res = await client.continue(tk, testJournal(store));
    assert.equal(res.status, "done", `cut after ${n} (${cut}): ${JSON.stringify(res)}`);
    check({ n, cut, lost, res, runs: t.runs, asked: ask.asked, run: entries(store)[0].run, store });
    await client.close();
    await tk.close();
  }
}

test("cut off at each step and continued: an approved tool runs at most once, and is asked about when its outcome was lost", T, async () => {
  let askedCases = 0;
  await cutAtEachStep("refund order 2", ({ n, cut, lost, res, runs, asked, run }) => {
    const why = `cut after ${n} records (${cut})`;
    assert.ok(runs.refund.length <= 1, `${why}: refund ran ${runs.refund.length} times`);
    if (lost) {
      askedCases++;
      assert.equal(asked.length, 1, `${why}: asked once`);
      const q = asked[0];
      assert.equal(q.kind, "outcome_unknown");
      assert.equal(q.prompt, 'refund {"order":"2"} was running when the run stopped: did it happen?');
      assert.deepEqual({ tool: q.data.tool, args: q.data.args, callId: q.data.callId }, { tool: "refund", args: { order: "2" }, callId: "c1" });
      assert.deepEqual(q.data.choices, ["happened", "rerun", "failed"]);
      assert.equal(res.text, "done: seen in the ledger", why);
    } else {
      assert.equal(asked.length, 0, `${why}: nothing to ask`);
      assert.equal(runs.refund.length, 1, `${why}: refund ran once`);
      assert.equal(res.text, "done: refund done for order 2", why);
    }
    for (const key of runs.refund) assert.equal(key, `${run}:c1`);
  });
  assert.equal(askedCases, 1, "exactly one cut lands between the call and its outcome");
});

test("cut off at each step: an idempotent approved tool runs again with the same key, unasked", T, async () => {
  let reran = 0;
  await cutAtEachStep("charge order 3", ({ n, lost, res, runs, asked, run }) => {
    assert.equal(asked.length, 0, `cut after ${n}: not asked`);
    assert.equal(runs.charge.length, lost ? 2 : 1, `cut after ${n}: runs ${runs.charge.length}`);
    if (lost) reran++;
    assert.deepEqual(new Set(runs.charge), new Set([`${run}:c1`]), "the same Idempotency key on every attempt");
    assert.equal(res.text, "done: charge done for order 3");
  });
  assert.equal(reran, 1);
});

test("cut off at each step: a tool that needs no approval runs again, unasked", T, async () => {
  // start, model, turn, call, outcome, model, turn, end
  await cutAtEachStep("add order 4", ({ n, lost, res, runs, asked }) => {
    assert.equal(asked.length, 0, `cut after ${n}`);
    assert.equal(runs.add.length, lost ? 2 : 1, `cut after ${n}`);
    assert.equal(res.text, "done: add done for order 4");
  }, { full: 8 });
});

test("without waitFor: halts on the approval, then on the lost outcome; continue records each answer first", T, async () => {
  const t = tools();
  const tk = await tnx.createToolkit({ tools: t.list });
  const client = await tnx.createClient({ generate, model: "m" });
  for (const [answer, runs, text] of [
    [(id) => tnx.answerRunAgain(id), 2, "done: refund done for order 5"],
    [(id) => tnx.answerDeclined(id, "not in the ledger"), 1, /recorded it as not done: not in the ledger/],
    [(id) => tnx.answerOutcome(id, "refunded, says the bank"), 1, "done: refunded, says the bank"],
  ]) {
    t.runs.refund.length = 0;
    const store = storage();
    const halted = await client.run("refund order 5", tk, { journal: testJournal(store) });
    assert.equal(halted.status, "pending");
    assert.equal(halted.pending.kind, "approval");
    // The approval is recorded, the refund runs, and its outcome is lost.
    // (The approval is a decision of the record too, between the two: issue 32.)
    await client.continue(tk, testJournal(store, 3), { answer: { id: halted.pending.id, ok: true } }).then(() => assert.fail("cut"), () => {});
    assert.deepEqual(kinds(store).slice(-3), ["answer", "decision", "call"]);
    assert.equal(t.runs.refund.length, 1);
    const asked = await client.continue(tk, testJournal(store));
    assert.equal(asked.status, "pending");
    assert.equal(asked.pending.kind, "outcome_unknown");
    assert.equal(asked.pending.data.approval, halted.pending.id);
    const again = await client.continue(tk, testJournal(store));
    assert.equal(again.pending.id, asked.pending.id, "the same question until it is answered");
    const res = await client.continue(tk, testJournal(store), { answer: answer(asked.pending.id) });
    assert.equal(res.status, "done");
    if (typeof text === "string") assert.equal(res.text, text);
    else assert.match(res.text, text);
    assert.equal(t.runs.refund.length, runs);
    const recorded = entries(store).filter((e) => e.kind === "answer").map((e) => e.answer.id);
    assert.deepEqual(recorded, [halted.pending.id, asked.pending.id]);
  }
});

test("a waitFor that leaves the question for later halts the run with it kept, and nothing is recorded", T, async () => {
  const t = tools();
  const tk = await tnx.createToolkit({ tools: t.list });
  const store = storage();
  const client = await tnx.createClient({ generate, model: "m" });
  const halted = await client.run("refund order 6", tk, { journal: testJournal(store) });
  await client.continue(tk, testJournal(store, 3), { answer: { id: halted.pending.id, ok: true } }).catch(() => {});
  let asks = 0;
  const later = await tnx.createClient({ generate, model: "m", waitFor: (r) => { asks++; return { id: r.id, later: true }; } });
  const events = [];
  let res;
  for await (const e of later.streamContinue(tk, testJournal(store))) {
    if (e.type === "done") res = e.result;
    else events.push(e.type);
  }
  assert.equal(asks, 1);
  assert.deepEqual(events, ["pending"]);
  assert.equal(res.status, "pending");
  assert.equal(res.pending.kind, "outcome_unknown");
  assert.ok(!kinds(store).includes("end"));
  assert.equal(kinds(store).filter((k) => k === "answer").length, 1, "only the approval is recorded");
  // Asked again later, inline this time.
  const ask = asker((r) => tnx.answerOutcome(r.id, "yes"));
  const inline = await tnx.createClient({ generate, model: "m", waitFor: ask.waitFor });
  const done = await inline.continue(tk, testJournal(store));
  assert.equal(done.text, "done: yes");
  assert.equal(ask.asked[0].id, res.pending.id);
  assert.equal(t.runs.refund.length, 1);
});

test("two continues of one run race: the approved call runs once, the other is refused", T, async () => {
  const t = tools();
  const tk = await tnx.createToolkit({ tools: t.list });
  const client = await tnx.createClient({ generate, model: "m" });
  const store = storage();
  const halted = await client.run("refund order 7", tk, { journal: testJournal(store) });
  const answer = { id: halted.pending.id, ok: true };
  const both = await Promise.allSettled([client.continue(tk, testJournal(store), { answer }), client.continue(tk, testJournal(store), { answer })]);
  assert.equal(t.runs.refund.length, 1);
  const done = both.filter((r) => r.status === "fulfilled");
  const refused = both.filter((r) => r.status === "rejected");
  assert.equal(done.length, 1, JSON.stringify(both.map((r) => r.reason?.message ?? r.value?.status)));
  assert.equal(done[0].value.text, "done: refund done for order 7");
  assert.match(refused[0].reason.message, /recorded already/);
  // The run the journal holds is whole: a third continue returns its end.
  assert.equal((await client.continue(tk, testJournal(store))).text, "done: refund done for order 7");
  assert.equal(t.runs.refund.length, 1);
});

test("stream with a journal: a stream cut off mid-run and streamed again reports only the steps it takes", T, async () => {
  const t = tools();
  const tk = await tnx.createToolkit({ tools: t.list });
  const client = await tnx.createClient({ generate, model: "m", waitFor: asker().waitFor });
  const store = storage();
  // Cut after the add's outcome: the second model call is made on the continue.
  const cut = [];
  await (async () => { for await (const e of client.stream("add order 8", tk, { journal: testJournal(store, 5) })) cut.push(e.type); })()
    .then(() => assert.fail("cut"), (err) => assert.match(err.message, /storage gone/));
  assert.deepEqual(kinds(store), ["start", "model", "turn", "call", "outcome"]);
  const seen = [];
  let res;
  for await (const e of client.stream("add order 8", tk, { journal: testJournal(store) })) {
    if (e.type === "done") res = e.result;
    else seen.push(e.type);
  }
  assert.deepEqual(seen, ["text", "usage"]);
  assert.equal(res.text, "done: add done for order 8");
  assert.equal(res.toolCalls.length, 1, "the recorded call is in the result");
  assert.equal(t.runs.add.length, 1);
  // recordedEvents shows a page what happened before it was cut off.
  assert.deepEqual(recordedEvents(store.texts).map((e) => e.type), ["tool_call", "tool_result", "text"]);
});

test("an idempotent HTTP tool sends the same Idempotency-Key on the attempt after a cut", T, async () => {
  const seen = [];
  const server = createServer((req, res) => {
    seen.push(req.headers["idempotency-key"] ?? null);
    req.resume();
    req.on("end", () => { res.writeHead(200, { "content-type": "text/plain" }); res.end("charged"); });
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  try {
    const url = `http://127.0.0.1:${server.address().port}/charge`;
    const schema = { type: "object", properties: { order: { type: "string" } } };
    const tk = await tnx.createToolkit({ tools: [
      tnx.httpTool({ name: "charge", inputSchema: schema, needsApproval: true, idempotent: true, http: { method: "POST", url } }),
      tnx.httpTool({ name: "refund", inputSchema: schema, needsApproval: true, http: { method: "POST", url } }),
    ] });
    const client = await tnx.createClient({ generate, model: "m", waitFor: asker().waitFor });
    const store = storage();
    await client.run("charge order 9", tk, { journal: testJournal(store, 7) }).then(() => assert.fail("cut"), () => {});
    assert.deepEqual(kinds(store).slice(-1), ["call"]);
    const res = await client.continue(tk, testJournal(store));
    assert.equal(res.text, "done: charged");
    const key = `${entries(store)[0].run}:c1`;
    assert.deepEqual(seen, [key, key]);
    // A tool not declared idempotent sends none.
    seen.length = 0;
    await client.run("refund order 9", tk, { journal: testJournal(storage()) });
    assert.deepEqual(seen, [null]);
  } finally {
    await new Promise((ok) => server.close(ok));
  }
});

test("bad journals are refused with a clear error, and nothing runs", T, async () => {
  const t = tools();
  const tk = await tnx.createToolkit({ tools: t.list });
  const client = await tnx.createClient({ generate, model: "m" });
  await assert.rejects(client.run("refund order 10", tk, { journal: {} }), /journal must be an object with load\(\) and record/);
  await assert.rejects(client.continue(tk, { load: async () => "nope", record: async () => {} }), /array of JSON texts/);
  await assert.rejects(client.continue(tk, { load: async () => ["{not json"], record: async () => {} }), /journal entry 1/);
  await assert.rejects(client.continue(tk, testJournal(storage())), /holds no run/);
  const deep = "[".repeat(100_000) + "]".repeat(100_000);
  await assert.rejects(client.continue(tk, { load: async () => [deep], record: async () => {} }), /journal entry 1/);
  await assert.rejects(client.continue(tk, testJournal(storage()), { answer: { ok: true } }), /needs the id/);
  assert.equal(t.runs.refund.length, 0);
});

test("browserJournal in Node keeps the journal in memory, with the same contract", T, async () => {
  const j = browserJournal(`node-${Date.now()}`);
  await j.ready();
  assert.equal(j.kind, "memory");
  assert.equal(await j.unfinished(), false);
  await j.record("start", '{"kind":"start"}');
  await j.record("model/1/1", '{"kind":"model","turn":1,"attempt":1}');
  const dup = await j.record("start", '{"kind":"start"}').then(() => null, (e) => e);
  assert.equal(dup?.name, "ConstraintError");
  assert.equal(dup?.duplicate, true);
  assert.deepEqual(await j.load(), ['{"kind":"start"}', '{"kind":"model","turn":1,"attempt":1}']);
  assert.equal(await j.unfinished(), true);
  assert.deepEqual(await browserJournal(j.name).load(), await j.load(), "one journal per name in a process");
  await j.clear();
  assert.deepEqual(await j.load(), []);
  // A journaled run over it, halted and continued.
  const t = tools();
  const tk = await tnx.createToolkit({ tools: t.list });
  const client = await tnx.createClient({ generate, model: "m" });
  const halted = await client.run("refund order 11", tk, { journal: j });
  const done = await client.continue(tk, j, { answer: { id: halted.pending.id, ok: true } });
  assert.equal(done.text, "done: refund done for order 11");
  assert.equal(await j.unfinished(), false);
  assert.throws(() => browserJournal(""), /a name is required/);
});
