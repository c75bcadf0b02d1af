// decisions-worker.test.mjs — who approved what on the Worker (issue 32), end
// to end on workerd (Miniflare, the RunLog Durable Object as the generated
// wrangler.jsonc binds it), with Chromium as the approvers' other devices and
// the tab's own wasm (dist/web) verifying the Worker's record:
//
//   - a broken APPROVAL_RULES names every problem at once and nothing runs;
//   - a durable run with a rule's allow, a person's edit through the link
//     in a second browser context, and a decline in a third: one entry each,
//     verified; a replayed approval adds none; a changed or removed entry
//     fails verify, which names it.
//
//   ./build.sh && ./build.sh worker && cd tests && timeout 600 node --test --test-force-exit decisions-worker.test.mjs

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { setTimeout as sleep } from "node:timers/promises";
import { chromium } from "playwright-core";
import { LAUNCH, withPage } from "./chromium.mjs";
import { startWorkerMock } from "./worker-mock.mjs";
import { dist, startWorker } from "./worker-harness.mjs";

const KEY = "sk-decisions-provider-key-31ff";
const SECRET = "decisions-state-secret-0123456789abcdef";
const ALICE = "alice-approver-token-0123";
const BOB = "bob-approver-token-98765432";
const T = { timeout: 120_000 };

let mock, browser, tnx;
const workers = {};

before(async () => {
  mock = await startWorkerMock();
  const base = { LLM_BASE_URL: `${mock.url}/v1`, LLM_MODEL: "mock-model", LLM_API_KEY: KEY, STATE_SECRET: SECRET };
  workers.ruled = await startWorker({
    ...base,
    APPROVAL_RULES: JSON.stringify([{ name: "sums", tool: "add", decision: "allow" }]),
    APPROVER_TOKEN: `alice:${ALICE},bob:${BOB}`,
  });
  workers.broken = await startWorker({
    ...base,
    APPROVAL_RULES: JSON.stringify([
      { tool: "refund", decision: "sometimes" },
      { tool: "refund", when: [{ path: "amount", op: "<=", value: "fifty" }], decision: "allow" },
      { tool: "refnd", decision: "deny" },
    ]),
  });
  browser = await chromium.launch(LAUNCH);
  const mod = await import(pathToFileURL(join(dist, "web", "toolnexus.mjs")).href);
  tnx = await mod.load({ wasm: join(dist, "web", "toolnexus.wasm") });
});

after(async () => {
  await browser?.close();
  for (const w of Object.values(workers)) await w.dispose().catch(() => {});
  await mock?.close();
});

async function call(worker, method, path, opts = {}) {
  const res = await workers[worker].call(method, path, opts);
  for (const s of [KEY, SECRET, ALICE, BOB]) assert.ok(!res.text.includes(s), `${path} returned a secret`);
  return res;
}

// pendingAfter waits until run id waits on a request other than prev.
async function pendingAfter(id, prev) {
  const end = Date.now() + 20_000;
  for (;;) {
    const res = await call("ruled", "GET", `/v1/runs/${id}`);
    if (res.json.status === "pending" && res.json.pending.id !== prev) return res.json.pending;
    assert.notEqual(res.json.status, "error", res.text);
    assert.ok(Date.now() < end, `run stayed ${res.text}`);
    await sleep(100);
  }
}

async function finished(id) {
  const end = Date.now() + 20_000;
  for (;;) {
    const res = await call("ruled", "GET", `/v1/runs/${id}`);
    if (res.json.status === "done" || res.json.status === "error") return res.json;
    assert.ok(Date.now() < end, `run stayed ${res.text}`);
    await sleep(100);
  }
}

// onPage opens an approveURL in a fresh browser context (another device),
// enters the approver's token and lets fn answer in the dialog.
async function onPage(url, token, fn, then) {
  const u = new URL(url);
  const real = new URL(u.pathname + u.search, workers.ruled.url).href;
  return withPage(browser, async (page, problems) => {
    await page.goto(real);
    await page.locator("#token").fill(token);
    await page.locator("#token-form button").click();
    const dialog = page.locator("dialog.tnx-approval");
    await dialog.waitFor();
    await fn(dialog);
    await page.locator("#status[data-kind=done]").waitFor();
    await then?.(page);
    assert.deepEqual(problems, []);
  });
}

test("a broken APPROVAL_RULES: every problem at once, and nothing runs", T, async () => {
  const ready = await call("broken", "GET", "/readyz");
  assert.equal(ready.status, 503);
  const problems = ready.json.problems.filter((p) => p.setting === "APPROVAL_RULES").map((p) => p.problem);
  assert.deepEqual(problems, [
    'rule 1: "decision" must be allow, deny or ask, not "sometimes"',
    'rule 2: condition 1: "value" of <= must be a number',
    'rule 3: tool "refnd" is not offered by this Worker (GET /v1/tools lists them)',
  ]);
  const before = mock.requests.length;
  for (const [path, body] of [["/v1/run", { prompt: "refund order 42" }], ["/v1/runs", { prompt: "refund order 42" }],
    ["/v1/chat/completions", { messages: [{ role: "user", content: "refund order 42" }] }]]) {
    const res = await call("broken", "POST", path, { body });
    assert.equal(res.status, 500, `${path}: ${res.text}`);
    assert.equal(res.json.error.code, "config");
    assert.equal(res.json.error.problems.filter((p) => p.setting === "APPROVAL_RULES").length, 3, res.text);
  }
  assert.equal(mock.requests.length, before, "the model was called");
});

test("the record of a run: a rule, an edit on a second device, a decline on a third; verified, and a change named", T, async () => {
  const started = await call("ruled", "POST", "/v1/runs", { body: { prompt: 'chain: add {"a":2,"b":3} | refund {"order":42} | refund {"order":7}' } });
  assert.equal(started.status, 202, started.text);
  const id = started.json.id;
  const first = await pendingAfter(id, "");
  assert.deepEqual(first.args, { order: 42 });
  await onPage(first.approveURL, ALICE, async (dialog) => {
    await dialog.locator(".tnx-edit").click();
    await dialog.locator("textarea.tnx-args-edit").fill('{"order": 43}');
    await dialog.locator(".tnx-approve").click();
  });
  const second = await pendingAfter(id, first.id);
  assert.deepEqual(second.args, { order: 7 });
  await onPage(second.approveURL, BOB, async (dialog) => {
    await dialog.locator(".tnx-reason input, .tnx-reason textarea").first().fill("refunded by hand already");
    await dialog.locator(".tnx-decline").click();
  });
  const done = await finished(id);
  assert.equal(done.status, "done", JSON.stringify(done));

  const rec = await call("ruled", "GET", `/v1/runs/${id}/decisions`);
  assert.equal(rec.status, 200, rec.text);
  assert.deepEqual(rec.json.decisions.map((e) => [e.tool, e.decision, e.rule ?? e.approver, e.from]), [
    ["add", "allowed", "sums", "rule"],
    ["refund", "edited", "alice", "link"],
    ["refund", "declined", "bob", "link"],
  ]);
  const [, edited, declined] = rec.json.decisions;
  assert.deepEqual([edited.asked, edited.ran, edited.run], [{ order: 42 }, { order: 43 }, id]);
  assert.equal(declined.reason, "refunded by hand already");
  assert.equal(declined.ran, undefined);
  // The tab's wasm (its own SHA-256) verifies what the Worker chained.
  const head = rec.json.head;
  assert.deepEqual(await tnx.verifyDecisions(rec.json.decisions, { head }), { ok: true, count: 3, head });
  const lines = await call("ruled", "GET", `/v1/runs/${id}/decisions?format=jsonl`);
  assert.match(lines.headers.get("content-type"), /application\/jsonl/);
  assert.equal(lines.headers.get("x-decisions-head"), head);
  assert.equal((await tnx.verifyDecisions(lines.text, { head })).ok, true);

  // A replayed approval is refused and adds nothing.
  const u = new URL(first.approveURL);
  const replay = await call("ruled", "POST", u.pathname + u.search, { body: { ok: true }, headers: { "x-approver-token": ALICE } });
  assert.equal(replay.status, 409, replay.text);
  const again = await call("ruled", "GET", `/v1/runs/${id}/decisions`);
  assert.equal(again.json.count, 3);
  assert.equal(again.json.head, head);

  // Any entry changed or removed: verify fails and names it.
  for (let i = 0; i < 3; i++) {
    const changed = structuredClone(rec.json.decisions);
    changed[i].approver = "mallory";
    const v = await tnx.verifyDecisions(changed, { head });
    assert.equal(v.ok, false);
    assert.equal(v.index, i + 1, v.error);
    const removed = rec.json.decisions.filter((_, j) => j !== i);
    const r = await tnx.verifyDecisions(removed, { head });
    assert.equal(r.ok, false, `entry ${i + 1} removed`);
  }
});

test("a stateless run's decisions ride in its result, chained", T, async () => {
  const res = await call("ruled", "POST", "/v1/run", { body: { prompt: "add 2 and 3" } });
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(res.json.decisions.map((e) => [e.seq, e.tool, e.decision, e.rule]), [[1, "add", "allowed", "sums"]]);
  assert.deepEqual(await tnx.verifyDecisions(res.json.decisions, { head: res.json.decisionsHead }),
    { ok: true, count: 1, head: res.json.decisionsHead });
});

test("the approval page's \"Allow for this run\" approves the same call later; revoked, it is gone", T, async () => {
  const started = await call("ruled", "POST", "/v1/runs", { body: { prompt: 'chain: refund {"order":42} | refund {"order":42} | refund {"order":7}' } });
  const id = started.json.id;
  const first = await pendingAfter(id, "");
  let said = "";
  await onPage(first.approveURL, ALICE, async (dialog) => {
    assert.equal(await dialog.locator("legend").textContent(), "Allow for this run");
    await dialog.getByRole("radio", { name: "with these exact arguments" }).check();
    await dialog.getByRole("button", { name: "Allow for this run" }).click();
  }, async (page) => { said = await page.locator("#status").textContent(); });
  assert.match(said, /approved, and allowed for the rest of the run with these arguments/);
  // The second refund of 42 runs on that decision: the run next waits on order 7.
  const next = await pendingAfter(id, first.id);
  assert.deepEqual(next.args, { order: 7 });
  const u = new URL(next.approveURL);
  const declined = await call("ruled", "POST", u.pathname + u.search, { body: { ok: false, reason: "not 7" }, headers: { "x-approver-token": BOB } });
  assert.equal(declined.status, 200, declined.text);
  await finished(id);
  const rec = await call("ruled", "GET", `/v1/runs/${id}/decisions`);
  assert.deepEqual(rec.json.decisions.map((e) => [e.decision, e.grant ?? e.grantedBy ?? "", e.approver ?? "", e.from]),
    [["approved", "args", "alice", "link"], ["approved", first.id, "alice", "grant"], ["declined", "", "bob", "link"]]);
  assert.equal((await tnx.verifyDecisions(rec.json.decisions, { head: rec.json.head })).ok, true);
  const revoke = await call("ruled", "POST", `/v1/runs/${id}/revoke`, { body: { grant: first.id } });
  assert.equal(revoke.status, 200, revoke.text);
  assert.equal(revoke.json.decision.decision, "revoked");
  assert.equal((await call("ruled", "POST", `/v1/runs/${id}/revoke`, { body: { grant: first.id } })).status, 404);
  const after = await call("ruled", "GET", `/v1/runs/${id}/decisions`);
  assert.equal(after.json.count, 4);
  assert.equal((await tnx.verifyDecisions(after.json.decisions, { head: after.json.head })).ok, true);
});
