// worker-runs.test.mjs — durable runs and approval links (issue 24) end to end
// on workerd (Miniflare, the RunLog and ApprovalLedger Durable Objects bound as
// the generated wrangler.jsonc binds them), against the open-ended mock model
// (worker-mock.mjs: "refund order 42" → refund {order: 42}; a tool result →
// "done: <output>"), with Chromium as the approver's other device. Run after
// ./build.sh worker:
//
//   cd tests && timeout 600 node --test --test-force-exit worker-runs.test.mjs
//
// Workers:
//   main     AGENTS (the README's team), APPROVAL_WEBHOOK → a local hook
//            that fails its first call
//   guarded  APPROVER_TOKEN set, links live 2 s
//   hang     APPROVAL_WEBHOOK → a hook that never answers
//   persist  Durable Object storage in a folder; stopped and started again

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { chromium } from "playwright-core";
import { LAUNCH, withPage, startSite } from "./chromium.mjs";
import { startWorkerMock } from "./worker-mock.mjs";
import { startWorker } from "./worker-harness.mjs";

const KEY = "sk-runs-provider-key-77aa";
const SECRET = "runs-state-secret-0123456789abcdef";
const APPROVER = "approver-token-5b1e";
const T = { timeout: 120_000 };

function readmeAgents() {
  const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
  const m = readme.match(/<!-- readme-test: worker-agents -->\n```jsonc\n"AGENTS": ([\s\S]*?)\n```/);
  assert.ok(m, "README has no worker-agents example");
  return JSON.parse(m[1]);
}

// startHook serves a webhook that records each POST; answer(n) is the HTTP
// status of the n-th call (0: never answer).
async function startHook(answer) {
  const calls = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => { body += c; });
    req.on("end", () => {
      calls.push({ at: Date.now(), body: JSON.parse(body || "null") });
      const status = answer(calls.length);
      if (status) res.writeHead(status).end();
    });
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  return { url: `http://127.0.0.1:${server.address().port}/hook`, calls, close: () => { server.closeAllConnections(); server.close(); } };
}

let mock, hook, hang, browser, persistDir;
const workers = {};

before(async () => {
  mock = await startWorkerMock();
  hook = await startHook((n) => (n === 1 ? 500 : 200));
  hang = await startHook(() => 0);
  const base = { LLM_BASE_URL: `${mock.url}/v1`, LLM_MODEL: "mock-model", LLM_API_KEY: KEY, STATE_SECRET: SECRET };
  workers.main = await startWorker({ ...base, AGENTS: readmeAgents(), APPROVAL_WEBHOOK: hook.url });
  workers.guarded = await startWorker({ ...base, APPROVER_TOKEN: APPROVER, APPROVAL_TTL_SECONDS: "2" });
  workers.hang = await startWorker({ ...base, APPROVAL_WEBHOOK: hang.url });
  persistDir = await mkdtemp(join(tmpdir(), "tn-runs-"));
  workers.persist = await startWorker(base, { persist: persistDir });
  workers.base = base;
  browser = await chromium.launch(LAUNCH);
});

after(async () => {
  await browser?.close();
  for (const [k, w] of Object.entries(workers)) if (k !== "base") await w.dispose().catch(() => {});
  await mock?.close();
  hook?.close();
  hang?.close();
  if (persistDir) await rm(persistDir, { recursive: true, force: true });
});

async function call(worker, method, path, { body, headers } = {}) {
  const res = await workers[worker].call(method, path, { body, headers });
  for (const s of [KEY, SECRET]) assert.ok(!res.text.includes(s), `${path} returned a secret`);
  return res;
}

// watch reads GET /v1/runs/{id}/events as {id, event, data} objects.
async function* watch(worker, id, { lastEventId, signal } = {}) {
  const res = await fetch(new URL(`/v1/runs/${id}/events`, workers[worker].url), {
    headers: lastEventId ? { "last-event-id": String(lastEventId) } : {}, signal,
  });
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type"), /text\/event-stream/);
  const decoder = new TextDecoder();
  let buf = "";
  for await (const chunk of res.body) {
    buf += decoder.decode(chunk, { stream: true });
    let i;
    while ((i = buf.indexOf("\n\n")) >= 0) {
      const block = buf.slice(0, i);
      buf = buf.slice(i + 2);
      const e = {};
      for (const line of block.split("\n")) {
        if (line.startsWith("id: ")) e.id = Number(line.slice(4));
        else if (line.startsWith("event: ")) e.event = line.slice(7);
        else if (line.startsWith("data: ")) e.data = JSON.parse(line.slice(6));
      }
      if (e.event) yield e;
    }
  }
}

// collect gathers a watcher's events in the background; until(pred) waits
// for one that matches.
function collect(worker, id, opts) {
  const events = [];
  let wake = () => {};
  const done = (async () => {
    try {
      for await (const e of watch(worker, id, opts)) { events.push(e); wake(); }
    } catch (err) {
      if (!opts?.signal?.aborted) throw err;
    }
    wake();
  })();
  return {
    events, done,
    async until(pred, ms = 15_000) {
      const end = Date.now() + ms;
      for (;;) {
        const e = events.find(pred);
        if (e) return e;
        assert.ok(Date.now() < end, `no such event in ${JSON.stringify(events.map((x) => x.event))}`);
        await Promise.race([new Promise((ok) => { wake = ok; }), sleep(200)]);
      }
    },
  };
}

async function start(worker, body = { prompt: "refund order 42" }) {
  const t0 = Date.now();
  const res = await call(worker, "POST", "/v1/runs", { body });
  assert.equal(res.status, 202, res.text);
  assert.equal(res.json.status, "running");
  assert.match(res.json.id, /^run_[0-9a-f]{32}$/);
  assert.equal(res.json.events, `/v1/runs/${res.json.id}/events`);
  assert.ok(Date.now() - t0 < 5000);
  return res.json.id;
}

async function state(worker, id, want) {
  const end = Date.now() + 15_000;
  for (;;) {
    const res = await call(worker, "GET", `/v1/runs/${id}`);
    assert.equal(res.status, 200, res.text);
    if (!want || want.includes(res.json.status)) return res.json;
    assert.ok(Date.now() < end, `run stayed ${res.text}`);
    await sleep(100);
  }
}

const linkPath = (url) => { const u = new URL(url); return u.pathname + u.search; };
const answer = (worker, url, body, headers) => call(worker, "POST", linkPath(url), { body, headers });

// openLink opens the link in a fresh browser context (another device) on the
// Worker's own URL and waits for the dialog or the page's status.
async function onPage(worker, url, fn) {
  const real = new URL(linkPath(url), workers[worker].url).href;
  return withPage(browser, async (page, problems) => {
    await page.goto(real);
    const out = await fn(page);
    assert.deepEqual(problems.filter((p) => !/409|Conflict/.test(p)), []);
    return out;
  });
}

test("a run approved with an edit on another device: the first watcher's stream goes on live", T, async () => {
  const id = await start("main");
  const watcher = collect("main", id);
  const pending = await watcher.until((e) => e.event === "pending");
  assert.equal(pending.data.request.data.tool, "refund");
  assert.deepEqual(pending.data.request.data.args, { order: 42 });
  const st = await state("main", id, ["pending"]);
  assert.equal(st.pending.tool, "refund");
  assert.deepEqual(st.pending.args, { order: 42 });
  assert.equal(st.pending.approveURL, pending.data.approveURL);
  assert.ok(!JSON.stringify(st).includes("tn1."), "the state token left the Worker");
  await onPage("main", st.pending.approveURL, async (page) => {
    const dialog = page.locator("dialog.tnx-approval");
    await dialog.waitFor();
    assert.equal(await dialog.locator(".tnx-tool").textContent(), "refund");
    assert.match(await dialog.locator(".tnx-args").textContent(), /"order": 42/);
    await dialog.locator(".tnx-edit").click();
    await dialog.locator("textarea.tnx-args-edit").fill('{"order": 43}');
    await dialog.locator(".tnx-approve").click();
    await page.locator("#status[data-kind=done]").waitFor();
    assert.match(await page.locator("#status").textContent(), /approved with edited arguments/);
  });
  const result = await watcher.until((e) => e.event === "tool_result");
  const json = (v) => (typeof v === "string" ? JSON.parse(v) : v); // core's events carry arguments as JSON text
  assert.deepEqual(json(result.data.args), { order: 43 });
  assert.deepEqual(json(result.data.originalArgs), { order: 42 });
  const done = await watcher.until((e) => e.event === "done");
  await watcher.done; // the stream ends after done
  assert.equal(done.data.status, "done");
  assert.equal(done.data.messages, undefined);
  assert.equal(done.data.state, undefined);
  assert.deepEqual(watcher.events.map((e) => e.id), watcher.events.map((_, i) => i + 1));
  const final = await state("main", id, ["done"]);
  assert.match(final.text, /refunded order 43/i);

  // The link again: 409 with the decision, and the page says so.
  const again = await answer("main", st.pending.approveURL, { ok: false, reason: "late" });
  assert.equal(again.status, 409, again.text);
  assert.equal(again.json.decision.decision, "edited");
  await onPage("main", st.pending.approveURL, async (page) => {
    await page.locator("#status[data-kind=answered]").waitFor();
    assert.match(await page.locator("#status").textContent(), /already answered: approved with edited arguments/);
  });
  // Events of a finished run: replayed from the beginning, then closed.
  const replay = collect("main", id);
  await replay.done;
  assert.deepEqual(replay.events.map((e) => e.event), watcher.events.map((e) => e.event));
});

test("declined with a reason on the page: the model's answer carries it", T, async () => {
  const id = await start("main");
  const st = await state("main", id, ["pending"]);
  await onPage("main", st.pending.approveURL, async (page) => {
    const dialog = page.locator("dialog.tnx-approval");
    await dialog.waitFor();
    await dialog.locator(".tnx-reason input, .tnx-reason textarea").first().fill("past the refund window");
    await dialog.locator(".tnx-decline").click();
    await page.locator("#status[data-kind=done]").waitFor();
  });
  const final = await state("main", id, ["done"]);
  assert.match(final.text, /past the refund window/);
});

test("the link: tampered, for another run, malformed, expired; racing approvers; APPROVER_TOKEN", T, async () => {
  const a = await start("guarded");
  const b = await start("guarded");
  const la = (await state("guarded", a, ["pending"])).pending.approveURL;
  const lb = (await state("guarded", b, ["pending"])).pending.approveURL;
  const ok = { "x-approver-token": APPROVER };
  const other = la.replace(/run=run_[0-9a-f]+/, `run=${b}`);
  assert.equal((await answer("guarded", other, { ok: true }, ok)).status, 403);
  assert.equal((await answer("guarded", la.replace(/d=[0-9a-f]/, "d=x"), { ok: true }, ok)).status, 403);
  assert.equal((await answer("guarded", la.replace(/&s=[^&]+/, ""), { ok: true }, ok)).status, 400);
  const missing = await answer("guarded", la, { ok: true });
  assert.equal(missing.status, 401, missing.text);
  assert.equal((await answer("guarded", la, { ok: true }, { "x-approver-token": "wrong" })).status, 401);
  const info = await call("guarded", "GET", linkPath(la) + "&view=json");
  assert.equal(info.json.tokenRequired, true);
  // Five approvers at once: exactly one wins.
  const racing = await Promise.all(Array.from({ length: 5 }, (_, i) => answer("guarded", la, { ok: i % 2 === 0 }, ok)));
  const codes = racing.map((r) => r.status).sort();
  assert.deepEqual(codes, [200, 409, 409, 409, 409], racing.map((r) => r.text).join("\n"));
  const won = racing.find((r) => r.status === 200).json.decision.decision;
  for (const r of racing.filter((r) => r.status === 409)) assert.equal(r.json.decision.decision, won);
  await state("guarded", a, ["done"]);
  // b's link outlives its 2 s.
  await sleep(2500);
  assert.equal((await answer("guarded", lb, { ok: true }, ok)).status, 410);
  assert.equal((await call("guarded", "GET", linkPath(lb) + "&view=json")).status, 410);
});

test("the approval page speaks to a person: time left, what was approved, a broken link; no favicon request; one line per button at 375 px", T, async () => {
  const id = await start("main");
  const { approveURL } = (await state("main", id, ["pending"])).pending;
  const real = new URL(linkPath(approveURL), workers.main.url).href;
  await withPage(browser, async (page, problems) => {
    const asked = [];
    page.on("request", (r) => asked.push(new URL(r.url()).pathname));
    await page.goto(real);
    const dialog = page.locator("dialog.tnx-approval");
    await dialog.waitFor();
    // APPROVAL_TTL_SECONDS is a day: hours and minutes, not 86385 s (issue 33).
    const countdown = dialog.locator(".tnx-countdown", { hasText: "Expires in" });
    await countdown.waitFor();
    assert.match(await countdown.textContent(), /^Expires in 2[34] h \d{1,2} min$/);
    // In edit mode, no button label breaks over two lines on a phone.
    await dialog.getByRole("button", { name: "Edit" }).click();
    const buttons = dialog.locator(".tnx-buttons button");
    const boxes = await buttons.evaluateAll((bs) => bs.map((b) => ({ text: b.textContent, h: b.getBoundingClientRect().height,
      fits: b.scrollWidth <= b.clientWidth, line: parseFloat(getComputedStyle(b).lineHeight) || 1.45 * parseFloat(getComputedStyle(b).fontSize) })));
    assert.deepEqual(boxes.map((b) => b.text), ["Decline", "Cancel edit", "Allow for this run", "Approve edited"]);
    for (const b of boxes) assert.ok(b.fits && b.h < 2 * b.line, `"${b.text}" wraps: ${JSON.stringify(b)}`);
    await dialog.getByRole("button", { name: "Approve edited" }).click();
    await page.locator("#status[data-kind=done]").waitFor();
    // After answering, the page shows what was approved: the tool and the arguments that run.
    const decided = page.getByRole("region", { name: "What was decided" });
    assert.match(await decided.textContent(), /Approved: the tool refund runs with these arguments\./);
    assert.deepEqual(JSON.parse(await decided.locator("pre").textContent()), { order: 42 });
    // The page declares its icon, so no browser asks the Worker for /favicon.ico
    // (a 404 in every visit's console; headless Chromium asks for none anyway).
    assert.equal(await page.evaluate(() => document.querySelector("link[rel~=icon]")?.getAttribute("href")), "data:,");
    assert.ok(!asked.includes("/favicon.ico"), `the page asked for /favicon.ico: ${asked.join(" ")}`);
    assert.deepEqual(problems, []);
  }, { contextOptions: { viewport: { width: 375, height: 740 } } });
  await state("main", id, ["done"]);

  // A changed link: the page says what to do, not the API's message.
  const other = await start("main");
  const link = (await state("main", other, ["pending"])).pending.approveURL.replace(/d=[0-9a-f]/, "d=x");
  await withPage(browser, async (page, problems) => {
    await page.goto(new URL(linkPath(link), workers.main.url).href);
    await page.locator("#status[data-kind=error]").waitFor();
    const text = await page.locator("#status").textContent();
    assert.match(text, /^This approval link does not work: it was changed or cut/);
    assert.doesNotMatch(text, /Worker|link_invalid/);
    assert.deepEqual(problems.filter((p) => !/403|Forbidden/.test(p)), []);
  });
  assert.equal((await answer("main", (await state("main", other, ["pending"])).pending.approveURL, { ok: false })).status, 200);
  await state("main", other, ["done"]);
});

test("a caller that goes away reattaches with Last-Event-ID", T, async () => {
  const id = await start("main");
  const ac = new AbortController();
  const seen = [];
  try {
    for await (const e of watch("main", id, { signal: ac.signal })) {
      seen.push(e);
      if (e.event === "pending") break;
    }
  } finally { ac.abort(); }
  const last = seen.at(-1);
  const st = await state("main", id, ["pending"]);
  assert.equal((await answer("main", st.pending.approveURL, { ok: true })).status, 200);
  const rest = collect("main", id, { lastEventId: last.id });
  await rest.done;
  assert.ok(rest.events.length > 0 && rest.events.every((e) => e.id > last.id), JSON.stringify(rest.events));
  assert.equal(rest.events.at(-1).event, "done");
});

test("the Worker restarts while the run waits; the link still works", T, async () => {
  const id = await start("persist");
  const st = await state("persist", id, ["pending"]);
  await workers.persist.dispose();
  workers.persist = await startWorker(workers.base, { persist: persistDir });
  const again = await state("persist", id, ["pending"]);
  assert.equal(again.pending.approveURL, st.pending.approveURL);
  const res = await answer("persist", st.pending.approveURL, { ok: true });
  assert.equal(res.status, 200, res.text);
  const final = await state("persist", id, ["done"]);
  assert.match(final.text, /refunded order 42/i);
});

test("a team run: the page shows support › billing and the tree resumes at the root", T, async () => {
  const id = await start("main", { prompt: "review order 42", agent: "support" });
  const st = await state("main", id, ["pending"]);
  assert.deepEqual(st.pending.path, ["support", "billing"]);
  await onPage("main", st.pending.approveURL, async (page) => {
    const dialog = page.locator("dialog.tnx-approval");
    await dialog.waitFor();
    assert.equal(await dialog.locator(".tnx-path").textContent(), "support › billing");
    await dialog.locator(".tnx-approve").click();
    await page.locator("#status[data-kind=done]").waitFor();
  });
  const final = await state("main", id, ["done"]);
  assert.ok(final.text.length > 0);
  const replay = collect("main", id);
  await replay.done;
  const done = replay.events.at(-1);
  assert.equal(done.event, "done");
  assert.equal(done.data.agent, "support");
});

test("the webhook: called once per halt with the link, retried; a hanging one does not delay the halt", T, async () => {
  const before = hook.calls.length;
  const id = await start("main");
  const st = await state("main", id, ["pending"]);
  const end = Date.now() + 10_000;
  while (hook.calls.length < before + 2 && Date.now() < end) await sleep(100);
  const mine = hook.calls.slice(before).filter((c) => c.body.run === id);
  assert.ok(mine.length >= 1, "the webhook was not called");
  const c = mine.at(-1).body;
  assert.equal(c.approveURL, st.pending.approveURL);
  assert.equal(c.tool, "refund");
  assert.deepEqual(c.args, { order: 42 });
  assert.ok(c.expiresAt && c.text.includes(st.pending.approveURL));

  const t0 = Date.now();
  const hid = await start("hang");
  const ac = new AbortController();
  const watcher = collect("hang", hid, { signal: ac.signal });
  try {
    await watcher.until((e) => e.event === "pending", 4000);
    assert.ok(Date.now() - t0 < 4000, "the halt waited for the webhook");
    assert.equal((await state("hang", hid)).status, "pending");
  } finally {
    ac.abort();
    await watcher.done;
  }
});

test("bad input: unknown run 404, too deep or too large a body", T, async () => {
  assert.equal((await call("main", "GET", "/v1/runs/run_00000000000000000000000000000000")).status, 404);
  assert.equal((await call("main", "GET", "/v1/runs/run_00000000000000000000000000000000/events")).status, 404);
  assert.equal((await call("main", "GET", "/v1/runs/nonsense")).status, 404);
  const deep = "[".repeat(2000) + "]".repeat(2000);
  const r1 = await call("main", "POST", "/v1/runs", { body: `{"prompt":"hi","messages":${deep}}` });
  assert.equal(r1.status, 400, r1.text);
  assert.equal(r1.json.error.code, "json_too_deep");
  const r2 = await call("main", "POST", "/v1/runs", { body: { prompt: "x".repeat(3 << 20) } });
  assert.equal(r2.status, 413, r2.text);
  const r3 = await call("main", "POST", "/v1/runs", { body: { prompt: "" } });
  assert.equal(r3.status, 400, r3.text);
});

test("<toolnexus-chat endpoint> follows a durable run, names the link, and goes on when it is answered elsewhere", T, async () => {
  const web = join(process.env.TOOLNEXUS_DIST ?? new URL("../dist", import.meta.url).pathname, "web");
  const site = await startSite(web);
  let worker;
  try {
    worker = await startWorker({ ...workers.base, ALLOWED_ORIGINS: site.server.url.replace(/\/$/, "") });
    await withPage(site.browser, async (page, problems) => {
      await page.goto(site.server.url + "examples/index.html");
      await page.evaluate((endpoint) => {
        document.body.insertAdjacentHTML("beforeend", `<toolnexus-chat id="remote" endpoint="${endpoint}"></toolnexus-chat>`);
      }, worker.url);
      const el = page.locator("#remote");
      await page.waitForSelector("#remote[ready]");
      await el.getByRole("textbox", { name: "Message" }).fill("refund order 42");
      await el.getByRole("button", { name: "Send" }).click();
      const dialog = page.getByRole("dialog");
      await dialog.waitFor();
      const note = el.locator(".entry.note", { hasText: "Waiting for approval — open this link on another device" });
      await note.waitFor();
      const url = (await note.locator(".text").textContent()).match(/https?:\/\/\S+/)[0]; // the line, not the QR code's caption
      // Another device answers: this page's dialog closes and the run goes on here.
      const other = new URL(linkPath(url), worker.url).href;
      await withPage(site.browser, async (phone) => {
        await phone.goto(other);
        await phone.locator("dialog.tnx-approval .tnx-approve").click();
        await phone.locator("#status[data-kind=done]").waitFor();
      });
      await dialog.waitFor({ state: "detached" });
      await page.waitForFunction(() => !document.querySelector("#remote").hasAttribute("busy"), null, { timeout: 30_000 });
      assert.match(await el.getByRole("log").textContent(), /done: refunded order 42/);
      assert.deepEqual(problems, []);
    });
  } finally {
    await worker?.dispose().catch(() => {});
    await site.close();
  }
});

test("<toolnexus-chat endpoint persist> reattaches to its durable run after a reload", T, async () => {
  const web = join(process.env.TOOLNEXUS_DIST ?? new URL("../dist", import.meta.url).pathname, "web");
  const site = await startSite(web, { scratch: true });
  let worker;
  try {
    worker = await startWorker({ ...workers.base, ALLOWED_ORIGINS: site.server.url.replace(/\/$/, "") });
    await writeFile(join(site.root, "runs-reload.html"), `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title>
<script type="module" src="./toolnexus-chat.mjs"></script></head><body><main><h1>Shop</h1>
<toolnexus-chat id="remote" persist="runs" endpoint="${worker.url}"></toolnexus-chat></main></body></html>`);
    await withPage(site.browser, async (page, problems) => {
      await page.goto(site.server.url + "runs-reload.html");
      const el = page.locator("#remote");
      await page.waitForSelector("#remote[ready]");
      await el.getByRole("textbox", { name: "Message" }).fill("refund order 42");
      await el.getByRole("button", { name: "Send" }).click();
      await page.getByRole("dialog").waitFor();
      await page.reload();
      await page.waitForSelector("#remote[ready]");
      // The run is followed again: its halt's dialog and note come back.
      const dialog = page.getByRole("dialog");
      await dialog.waitFor();
      await el.locator(".entry.note", { hasText: "open this link on another device" }).first().waitFor();
      await dialog.locator(".tnx-approve").click();
      await page.waitForFunction(() => /done: refunded order 42/.test(document.querySelector("#remote").shadowRoot.textContent), null, { timeout: 30_000 });
      assert.deepEqual(problems, []);
    });
  } finally {
    await worker?.dispose().catch(() => {});
    await site.close();
  }
});
