// survive-pages.test.mjs — what a person sees of a durable run whose approved
// call's outcome was lost (issue 31), in Chromium against workerd with
// persisted storage: the Worker is stopped while the approved charge runs
// and started again on the same storage and address, the run asks whether
// the charge happened, and the person answers on the approval link's page
// (it happened, with a result; run it again; it did not happen, with a
// reason; "Decide later" records nothing) or in <toolnexus-chat endpoint
// persist>, whose call line then says what was recorded.
//
//   ./build.sh && ./build.sh worker && cd tests && timeout 600 node --test --test-force-exit survive-pages.test.mjs
//
// The model (mock-llm.mjs): "charge order N" → charge {order: "N"}; a tool
// result → "done: <output>". The charge service counts each order's charges;
// holdCharge makes the next charges wait until the Worker is stopped.

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startMockLLM, toolResultsOf } from "./mock-llm.mjs";
import { startSite } from "./chromium.mjs";
import { dist, startWorker } from "./worker-harness.mjs";

const SECRET = "survive-pages-secret-0123456789abcdef";
const T = { timeout: 180_000 };

let mock, site, dir, base, worker, port;
const charges = []; // every charge the service received: {order}
let holding = 0; // charges still to hold
const held = []; // {arrived, release} of held charges
let arrive = () => {};

function reply(request) {
  const last = request.body?.messages?.at(-1) ?? {};
  const results = toolResultsOf({ body: { messages: [last] } });
  if (results.length) return { text: "done: " + results.map((r) => r.content).join("; ") };
  const m = (typeof last.content === "string" ? last.content : "").match(/charge order (\d+)/);
  return m ? { toolCalls: [{ name: "charge", args: { order: m[1] } }] } : { text: "hello" };
}

before(async () => {
  const script = new Proxy([], { get: (t, k) => (typeof k === "string" && /^\d+$/.test(k) ? reply : t[k]) });
  mock = await startMockLLM({ script, tools: {
    charge: async (args) => {
      charges.push({ order: args.order });
      if (holding > 0) {
        holding--;
        await new Promise((release) => { held.push({ release }); arrive(); });
      }
      return `charged order ${args.order}`;
    },
  } });
  site = await startSite(join(dist, "web"), { scratch: true });
  const schema = { type: "object", properties: { order: { type: "string" } }, required: ["order"] };
  base = {
    LLM_BASE_URL: `${mock.url}/v1`, LLM_MODEL: "mock-model", LLM_API_KEY: "sk-survive-pages-0123", STATE_SECRET: SECRET,
    ALLOWED_ORIGINS: site.server.url.replace(/\/$/, ""),
    HTTP_TOOLS: JSON.stringify([{ name: "charge", description: "Charge an order.", url: `${mock.url}/tools/charge`, method: "POST",
      inputSchema: schema, needsApproval: true, resultMode: "text" }]),
  };
  dir = await mkdtemp(join(tmpdir(), "tn-survive-pages-"));
  worker = await startWorker(base, { persist: dir });
  port = Number(new URL(worker.url).port);
});

after(async () => {
  await worker?.dispose().catch(() => {});
  for (const h of held) h.release();
  await site?.close();
  await mock?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

// holdCharges makes the next n charges wait; arrived() resolves once they all came.
function holdCharges(n) {
  holding += n;
  const before = held.length;
  return { arrived: () => new Promise((ok) => { arrive = () => { if (held.length >= before + n) ok(); }; arrive(); }) };
}

// restart stops workerd and starts it again on the same storage and port
// (the runs' approval links name it); the charges held now were the
// stopped Worker's, and are let go.
async function restart() {
  await worker.dispose();
  for (const h of held.splice(0)) h.release();
  worker = await startWorker(base, { persist: dir, port });
}

const call = (method, path, body) => worker.call(method, path, body === undefined ? {} : { body });
const linkPath = (url) => { const u = new URL(url); return u.pathname + u.search; };
const count = (order) => charges.filter((c) => c.order === order).length;

async function start(prompt) {
  const res = await call("POST", "/v1/runs", { prompt });
  assert.equal(res.status, 202, res.text);
  return res.json.id;
}

async function until(id, pred, ms = 60_000) {
  const end = Date.now() + ms;
  for (;;) {
    const res = await call("GET", `/v1/runs/${id}`);
    assert.equal(res.status, 200, res.text);
    if (pred(res.json)) return res.json;
    assert.ok(Date.now() < end, `run ${id} stayed ${res.text}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

// lostOutcomes starts a run per order, approves each through its link,
// stops the Worker while the charges run, and returns each run's question.
async function lostOutcomes(orders) {
  const ids = [];
  for (const o of orders) ids.push(await start(`charge order ${o}`));
  const hold = holdCharges(orders.length);
  for (const id of ids) {
    const { pending } = await until(id, (s) => s.status === "pending");
    assert.equal((await call("POST", linkPath(pending.approveURL), { ok: true })).status, 200);
  }
  await hold.arrived();
  await restart();
  const out = [];
  for (const id of ids) out.push({ id, pending: (await until(id, (s) => s.pending?.kind === "outcome_unknown")).pending });
  return out;
}

// withPage runs fn(page) in a fresh context; no console or page errors but
// the 409s a used link answers and the event stream the stopped Worker cut.
async function withPage(fn) {
  const context = await site.browser.newContext();
  context.setDefaultTimeout(30_000);
  const problems = [];
  try {
    const page = await context.newPage();
    page.on("console", (m) => { if (m.type() === "error" && !/409|Conflict|ERR_INCOMPLETE_CHUNKED_ENCODING/.test(m.text())) problems.push(`console: ${m.text().slice(0, 300)}`); });
    page.on("pageerror", (e) => problems.push(`pageerror: ${e.message.slice(0, 300)}`));
    await fn(page);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
}

const events = async (id) => {
  const res = await fetch(new URL(`/v1/runs/${id}/events`, worker.url));
  const out = [];
  for (const block of (await res.text()).split("\n\n")) {
    const data = block.split("\n").find((l) => l.startsWith("data: "));
    const event = block.split("\n").find((l) => l.startsWith("event: "));
    if (event && data) out.push({ event: event.slice(7), data: JSON.parse(data.slice(6)) });
  }
  return out;
};

test("the approval link's page asks whether the charge happened; Decide later records nothing; each answer is recorded as given", T, async () => {
  const [a, b, c] = await lostOutcomes(["201", "202", "203"]);
  for (const o of ["201", "202", "203"]) assert.equal(count(o), 1);

  // 201: Escape first (nothing recorded, the link still works), then "It happened" with what the ledger says.
  await withPage(async (page) => {
    await page.goto(new URL(linkPath(a.pending.approveURL), worker.url).href);
    const dialog = page.getByRole("dialog");
    await dialog.waitFor();
    assert.equal(await page.locator("h1").textContent(), "Did a tool call happen?");
    assert.equal(await dialog.locator(".tnx-question").textContent(), 'charge {"order":"201"} was running when the run stopped: did it happen?');
    await page.keyboard.press("Escape");
    await page.locator("#status[data-kind=later]").waitFor();
    assert.match(await page.locator("#status").textContent(), /Nothing was recorded/);
    const view = await call("GET", linkPath(a.pending.approveURL) + "&view=json");
    assert.equal(view.json.answered, undefined, "nothing recorded");
    assert.equal(view.json.request.kind, "outcome_unknown");
    await page.getByRole("button", { name: "Answer now" }).click();
    await dialog.getByLabel("Result, if it happened").fill("charged order 201 (seen in the ledger)");
    await dialog.getByRole("button", { name: "It happened" }).click();
    await page.locator("#status[data-kind=done]").waitFor();
    assert.match(await page.locator("#status").textContent(), /recorded as done/);
    assert.match(await page.locator("#decided").textContent(), /Recorded: the tool charge happened/);
  });
  assert.equal((await until(a.id, (s) => s.status === "done")).text, "done: charged order 201 (seen in the ledger)");

  // 202: "Run it again".
  await withPage(async (page) => {
    await page.goto(new URL(linkPath(b.pending.approveURL), worker.url).href);
    await page.getByRole("dialog").getByRole("button", { name: "Run it again" }).click();
    await page.locator("#status[data-kind=done]").waitFor();
    assert.match(await page.locator("#status").textContent(), /to be run again/);
  });
  assert.equal((await until(b.id, (s) => s.status === "done")).text, 'done: {"output":"charged order 202"}');

  // 203: "It did not happen", with a reason.
  await withPage(async (page) => {
    await page.goto(new URL(linkPath(c.pending.approveURL), worker.url).href);
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Reason, if it did not happen").fill("not in the ledger");
    await dialog.getByRole("button", { name: "It did not happen" }).click();
    await page.locator("#status[data-kind=done]").waitFor();
    assert.match(await page.locator("#status").textContent(), /recorded as not done \(reason: not in the ledger\)/);
  });
  assert.match((await until(c.id, (s) => s.status === "done")).text, /recorded it as not done: not in the ledger/);

  assert.deepEqual([count("201"), count("202"), count("203")], [1, 2, 1]);
  for (const [run, decision] of [[a, "happened"], [b, "rerun"], [c, "failed"]]) {
    const answers = (await events(run.id)).filter((e) => e.event === "answer").map((e) => e.data.decision);
    assert.deepEqual(answers, ["approved", decision]);
  }
  // The link is used: the page says what was recorded.
  await withPage(async (page) => {
    await page.goto(new URL(linkPath(b.pending.approveURL), worker.url).href);
    await page.locator("#status[data-kind=answered]").waitFor();
    assert.match(await page.locator("#status").textContent(), /already answered: to be run again/);
  });
});

test("<toolnexus-chat endpoint persist> asks whether the charge happened after the Worker restarted, posts the answer, and its line says what was recorded", T, async () => {
  await writeFile(join(site.root, "survive-remote.html"), `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>t</title>
<link rel="icon" href="data:,"><script type="module" src="./toolnexus-chat.mjs"></script></head>
<body><toolnexus-chat endpoint="${worker.url}" persist="remote"></toolnexus-chat></body></html>`);
  await withPage(async (page) => {
    const url = `${site.server.url}survive-remote.html`;
    await page.goto(url);
    await page.waitForSelector("toolnexus-chat[ready]");
    const chat = page.locator("toolnexus-chat");
    const hold = holdCharges(1);
    await chat.getByRole("textbox", { name: "Message" }).fill("charge order 204");
    await chat.getByRole("button", { name: "Send" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("button", { name: "Approve" }).click();
    await hold.arrived();
    const id = (await page.evaluate(async () => {
      const { browserStore } = await import("/store.mjs");
      return (await browserStore().get("toolnexus-chat:remote")).run;
    })).id;
    await restart();
    await until(id, (s) => s.pending?.kind === "outcome_unknown");
    // The page again: the element follows the run, and the question is asked here.
    await page.reload();
    await page.waitForSelector("toolnexus-chat[ready]");
    await dialog.locator(".tnx-question").waitFor();
    assert.equal(await dialog.locator(".tnx-question").textContent(), 'charge {"order":"204"} was running when the run stopped: did it happen?');
    await dialog.getByLabel("Result, if it happened").fill("charged order 204 (seen in the ledger)");
    await dialog.getByRole("button", { name: "It happened" }).click();
    await page.waitForFunction(() => /done: charged order 204 \(seen in the ledger\)/.test(
      document.querySelector("toolnexus-chat").shadowRoot.querySelector("[part=transcript]").textContent));
    const labels = await chat.locator(".entry.tool-call .who").allTextContents();
    assert.equal(labels.at(-1), "Tool call · happened", JSON.stringify(labels));
    assert.equal((await until(id, (s) => s.status === "done")).text, "done: charged order 204 (seen in the ledger)");
    assert.equal(count("204"), 1);
    assert.deepEqual((await events(id)).filter((e) => e.event === "answer").map((e) => [e.data.decision, e.data.by]),
      [["approved", "link"], ["happened", "link"]]);
  });
});
