// embed.test.mjs — <toolnexus-chat> end to end in headless Debian chromium
// (playwright-core), on plain static pages: the demo model, HTTP tools against a
// server on 127.0.0.1, remote mode against the Worker on workerd (Miniflare),
// two elements on one page, and hostile tool output.
//
//   ./build.sh build && ./build.sh worker && cd tests && timeout 600 node --test embed.test.mjs
//
// The bundle is read from $TOOLNEXUS_DIST/web (else ../dist/web), the Worker from
// $TOOLNEXUS_DIST/worker. Screenshots go to tests/artifacts/ (git-ignored).

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { startWorker } from "./worker-harness.mjs";
import { startWorkerMock } from "./worker-mock.mjs";
import { startSite, withPage as withFreshPage } from "./chromium.mjs";

const here = fileURLToPath(new URL(".", import.meta.url));
const DIST = process.env.TOOLNEXUS_DIST ?? join(here, "..", "dist");
const WEB = join(DIST, "web");
const ARTIFACTS = join(here, "artifacts");
const T = { timeout: 90_000 };
const EVENTS = ["toolnexus:tool-call", "toolnexus:pending", "toolnexus:done", "toolnexus:error"];

let site;
let root; // a copy of the bundle, so generated pages are real files on a loopback server
let server;
let browser;
let pageSeq = 0;

before(async () => {
  assert.ok(existsSync(join(WEB, "toolnexus.wasm")), `no build in ${WEB}: run ./build.sh first`);
  assert.ok(existsSync(join(WEB, "examples", "index.html")), `no examples in ${WEB}: web/examples was not copied`);
  site = await startSite(WEB, { scratch: true });
  ({ root, server, browser } = site);
});

after(async () => {
  await site?.close();
});

// withPage: a fresh context per test, always closed (chromium.mjs), which
// also records the element's events in window.__tnx.
const withPage = (fn, contextOptions = {}) => withFreshPage(browser, fn, {
  contextOptions,
  init: [(types) => {
    window.__tnx = [];
    for (const type of types) {
      document.addEventListener(type, (e) => {
        window.__tnx.push({ type, target: e.target.id, detail: JSON.parse(JSON.stringify(e.detail ?? null)) });
      });
    }
  }, EVENTS],
});

// openPage writes body into a plain static page beside the examples (so the
// same relative script tag works), opens it and waits until its elements are
// ready. (A page fulfilled by page.route would count as a public address, and
// Chromium would then refuse its requests to 127.0.0.1.)
async function openPage(page, body, { ready = true } = {}) {
  const name = `generated-${++pageSeq}.html`;
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>t</title>
<script type="module" src="../toolnexus-chat.mjs"></script></head><body>
${body}
</body></html>`;
  await writeFile(join(root, "examples", name), html);
  await page.goto(`${server.url}examples/${name}`);
  if (ready) await page.waitForSelector("toolnexus-chat[ready]");
}

async function openExample(page, name) {
  await page.goto(`${server.url}examples/${name}`);
  await page.waitForSelector("toolnexus-chat[ready]");
}

const chat = (page, id) => page.locator(id ? `toolnexus-chat#${id}` : "toolnexus-chat");
const transcript = (el) => el.getByRole("log").textContent();

// send types a message into one element and waits for the run to end
// (unless wait is false, e.g. when a dialog must be answered first).
// send types into one element and clicks Send; it waits (or returns a
// function that waits) until that element's run settles. Runs are counted
// per element: with two elements at work, the other's events must not count.
async function send(page, el, text, { wait = true } = {}) {
  const id = await el.evaluate((e) => e.id);
  const before = await settledCount(page, id);
  await el.getByRole("textbox", { name: "Message" }).fill(text);
  await el.getByRole("button", { name: "Send" }).click();
  const settled = () => page.waitForFunction(([n, id]) =>
    window.__tnx.filter((e) => /done|error/.test(e.type) && e.target === id).length > n, [before, id]);
  return wait ? settled() : settled;
}

// settledCount counts settled runs of the element with that id (all elements without one).
const settledCount = (page, id) => page.evaluate((id) =>
  window.__tnx.filter((e) => /done|error/.test(e.type) && (id === undefined || e.target === id)).length, id);
const events = (page, type) => page.evaluate((type) => window.__tnx.filter((e) => e.type === type), type);

async function answerDialog(page, { approve, reason }) {
  const dialog = page.getByRole("dialog");
  await dialog.waitFor();
  if (reason) await dialog.getByRole("textbox", { name: "Reason" }).fill(reason);
  await dialog.getByRole("button", { name: approve ? "Approve" : "Decline" }).click();
}

// startHTTP starts a tiny JSON API on 127.0.0.1 that records what it saw and
// answers CORS preflights (the page is on another port, so another origin).
async function startHTTP(handler) {
  const seen = [];
  const srv = createServer(async (req, res) => {
    const cors = {
      "access-control-allow-origin": "*",
      "access-control-allow-methods": "GET, POST, OPTIONS",
      "access-control-allow-headers": "authorization, content-type",
    };
    if (req.method === "OPTIONS") { res.writeHead(204, cors); return res.end(); }
    let body = "";
    for await (const chunk of req) body += chunk;
    const hit = { method: req.method, url: req.url, headers: req.headers, body };
    seen.push(hit);
    const { status = 200, text } = handler(hit);
    res.writeHead(status, { ...cors, "content-type": "application/json" });
    res.end(text);
  });
  await new Promise((ok) => srv.listen(0, "127.0.0.1", ok));
  return {
    url: `http://127.0.0.1:${srv.address().port}`,
    seen,
    close: () => new Promise((ok) => { srv.closeAllConnections?.(); srv.close(() => ok()); }),
  };
}

test("example page: one script tag and the element; accessible parts; Approve refunds; bytes measured", T, async (t) => {
  await withPage(async (page, problems) => {
    const downloads = [];
    page.on("response", async (res) => {
      const body = await res.body().catch(() => null);
      if (body && res.url().startsWith(server.url)) downloads.push({ path: new URL(res.url()).pathname, body });
    });
    await openExample(page, "index.html");
    const el = chat(page);
    const log = el.getByRole("log");
    assert.equal(await log.getAttribute("aria-live"), "polite");
    assert.ok(await el.getByRole("textbox", { name: "Message" }).isVisible());
    assert.ok(await el.getByRole("button", { name: "Send" }).isEnabled());

    const settled = await send(page, el, "refund order 42", { wait: false });
    const dialog = page.getByRole("dialog");
    await dialog.waitFor();
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), "Decline", "the same dialog: Decline first");
    assert.match(await dialog.locator("pre").textContent(), /"order": "42"/);
    await dialog.getByRole("button", { name: "Approve" }).click();
    await settled();
    const text = await transcript(el);
    assert.match(text, /refunded order 42/);
    assert.match(text, /Done: refunded order 42/);
    const pending = await events(page, "toolnexus:pending");
    assert.equal(pending.length, 1);
    assert.equal(pending[0].detail.request.data.tool, "refund");
    const calls = await events(page, "toolnexus:tool-call");
    assert.deepEqual(calls.map((c) => [c.detail.name, c.detail.output, c.detail.isError]), [["refund", "refunded order 42", false]]);
    assert.equal((await events(page, "toolnexus:done"))[0].detail.result.status, "done");
    assert.equal(await page.evaluate(() => document.activeElement?.localName), "toolnexus-chat", "focus is back in the element");

    await mkdir(ARTIFACTS, { recursive: true });
    await el.screenshot({ path: join(ARTIFACTS, "embed-light.png") });

    // What a page downloads to show the element (demo mode adds demo-model and demo-tools).
    const rows = downloads.filter((d) => !d.path.endsWith(".html"))
      .map((d) => ({ path: d.path, raw: d.body.length, gzip: gzipSync(d.body, { level: 9 }).length }));
    const total = rows.reduce((s, r) => ({ raw: s.raw + r.raw, gzip: s.gzip + r.gzip }), { raw: 0, gzip: 0 });
    for (const r of rows) t.diagnostic(`download ${r.path}: ${r.raw} raw, ${r.gzip} gzip -9`);
    t.diagnostic(`download total: ${total.raw} raw, ${total.gzip} gzip -9`);
    assert.ok(rows.some((r) => /\/toolnexus\.[0-9a-f]{10}\.wasm$/.test(r.path)), "the content-hashed wasm (scripts/wasm-hash.mjs)");
    assert.deepEqual(problems, []);
  });
});

test("demo: Decline with a reason — the answer quotes it; the decline is shown as Declined, not as an error", T, async () => {
  await withPage(async (page, problems) => {
    await openExample(page, "index.html");
    const el = chat(page);
    const settled = await send(page, el, "refund order 42", { wait: false });
    await answerDialog(page, { approve: false, reason: "over the refund limit" });
    await settled();
    const text = await transcript(el);
    assert.match(text, /I did not refund order 42: "over the refund limit"/);
    assert.doesNotMatch(text, /refunded order/);
    assert.equal(await el.locator(".entry.error").count(), 0, "declining is not an error");
    const declined = el.locator(".entry.declined");
    assert.equal(await declined.textContent(), "Declinedover the refund limit");
    assert.equal(await declined.getAttribute("part"), "entry entry-declined");
    const [call] = await events(page, "toolnexus:tool-call");
    assert.equal(call.detail.declined, true);
    assert.deepEqual(problems, []);
  });
});

test("keyboard: Tab to the textbox, Enter sends, Escape in the dialog declines", T, async () => {
  await withPage(async (page, problems) => {
    await openExample(page, "index.html");
    const el = chat(page);
    const focusedPart = () => page.evaluate(() => document.querySelector("toolnexus-chat").shadowRoot.activeElement?.getAttribute("part"));
    await page.keyboard.press("Tab");
    assert.equal(await focusedPart(), "transcript", "the scrollable transcript is reachable");
    await page.keyboard.press("Tab");
    assert.equal(await focusedPart(), "input");
    const before = await settledCount(page);
    await page.keyboard.type("add 2 and 3");
    await page.keyboard.press("Enter");
    await page.waitForFunction((n) => window.__tnx.filter((e) => /done|error/.test(e.type)).length > n, before);
    assert.match(await transcript(el), /2 \+ 3 = 5/);
    assert.equal(await focusedPart(), "input", "focus stays in the textbox");
    await page.keyboard.type("refund order 7");
    await page.keyboard.press("Enter");
    await page.getByRole("dialog").waitFor();
    await page.keyboard.press("Escape");
    await page.waitForFunction((n) => window.__tnx.filter((e) => /done|error/.test(e.type)).length > n + 1, before);
    assert.match(await transcript(el), /I did not refund order 7: "cancelled"/);
    assert.equal(await focusedPart(), "input", "focus comes back to the textbox");
    assert.deepEqual(problems, []);
  });
});

test("dark color scheme and outside styling through custom properties and ::part", T, async () => {
  await withPage(async (page, problems) => {
    await openExample(page, "index.html");
    const el = chat(page);
    await send(page, el, "add 2 and 3");
    await send(page, el, "divide 1 by 0");
    const bg = () => el.evaluate((e) => getComputedStyle(e.shadowRoot.querySelector("[part=container]")).backgroundColor);
    assert.equal(await bg(), "rgb(22, 27, 34)", "dark background");
    await mkdir(ARTIFACTS, { recursive: true });
    await el.screenshot({ path: join(ARTIFACTS, "embed-dark.png") });
    await page.addStyleTag({ content: "toolnexus-chat { --toolnexus-bg: rgb(1, 2, 3) } toolnexus-chat::part(send) { color: rgb(4, 5, 6) }" });
    assert.equal(await bg(), "rgb(1, 2, 3)");
    assert.equal(await el.getByRole("button", { name: "Send" }).evaluate((b) => getComputedStyle(b).color), "rgb(4, 5, 6)");
    assert.deepEqual(problems, []);
  }, { colorScheme: "dark" });
});

test("HTTP tool: substituted URL, ${NAME} header from el.variables only, non-2xx is an error result", T, async () => {
  const api = await startHTTP(({ url }) => (url.includes("/500/") ? { status: 500, text: "boom" } : { text: '{"refunded":true}' }));
  try {
    await withPage(async (page, problems) => {
      const config = {
        tools: [{
          name: "refund", description: "Refund through the shop API", needsApproval: true,
          inputSchema: { type: "object", properties: { order: { type: "string" } }, required: ["order"] },
          method: "POST", url: `${api.url}/shop/orders/{order}/refund`,
          headers: { authorization: "Bearer ${SHOP_TOKEN}" },
        }],
      };
      await openPage(page, `<toolnexus-chat demo><script type="application/json">${JSON.stringify(config)}</script></toolnexus-chat>`);
      const el = chat(page);
      // Values in storage or the page URL must never fill ${NAME}.
      await page.evaluate(() => { localStorage.setItem("SHOP_TOKEN", "from-storage"); history.replaceState(null, "", "?SHOP_TOKEN=from-url"); });
      let settled = await send(page, el, "refund order 41", { wait: false });
      await answerDialog(page, { approve: true });
      await settled();
      assert.equal(api.seen.length, 0, "no request without the variable");
      assert.match(await transcript(el), /variable SHOP_TOKEN is not set/);

      await el.evaluate((e) => { e.variables = { SHOP_TOKEN: "tok-123" }; });
      await page.waitForSelector("toolnexus-chat[ready]");
      settled = await send(page, el, "refund order 42", { wait: false });
      await answerDialog(page, { approve: true });
      await settled();
      assert.equal(api.seen.length, 1, (await transcript(el)) + problems.join("\n"));
      assert.equal(api.seen[0].method, "POST");
      assert.equal(api.seen[0].url, "/shop/orders/42/refund");
      assert.equal(api.seen[0].headers.authorization, "Bearer tok-123");
      assert.match(await transcript(el), /Done: \{"refunded":true\}/);

      settled = await send(page, el, "refund order 500", { wait: false });
      await answerDialog(page, { approve: true });
      await settled();
      assert.equal(api.seen.at(-1).url, "/shop/orders/500/refund");
      const errors = await el.locator(".entry.error").allTextContents();
      assert.ok(errors.some((e) => /HTTP 500: boom/.test(e)), `error entry: ${errors}`);
      assert.deepEqual(problems.filter((p) => !/status of 500/.test(p)), []);
    });
  } finally {
    await api.close();
  }
});

test("HTTP tool example page: a relative URL on the page's own server; unknown placeholder is an error", T, async () => {
  await withPage(async (page, problems) => {
    const hits = [];
    page.on("request", (r) => { if (r.url().includes("/data/")) hits.push(new URL(r.url()).pathname); });
    await openExample(page, "http-tool.html");
    const el = chat(page);
    const settled = await send(page, el, "refund order 42", { wait: false });
    await answerDialog(page, { approve: true });
    await settled();
    assert.deepEqual(hits, ["/examples/data/refunds/42.json"]);
    assert.match(await transcript(el), /"status": "refunded"/);

    await openPage(page, `<toolnexus-chat demo><script type="application/json">
      {"tools": [{"name": "refund", "url": "data/refunds/{order}/{who}.json"}]}</script></toolnexus-chat>`);
    await send(page, chat(page), "refund order 42");
    assert.match(await transcript(chat(page)), /the URL needs who but the arguments do not have it/);
    assert.deepEqual(problems.filter((p) => !/404/.test(p)), []);
  });
});

test("local mode: base-url, model, system-prompt, el.apiKey and the history reach the provider", T, async () => {
  const reply = { choices: [{ index: 0, message: { role: "assistant", content: "hello from the fake provider" }, finish_reason: "stop" }],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } };
  const provider = await startHTTP(() => ({ text: JSON.stringify(reply) }));
  try {
    await withPage(async (page, problems) => {
      await openPage(page, `<toolnexus-chat base-url="${provider.url}/v1" model="model-x" system-prompt="Be brief." max-turns="3"></toolnexus-chat>`);
      const el = chat(page);
      await el.evaluate((e) => { e.apiKey = "sk-local-experiment"; });
      assert.equal(await el.getAttribute("api-key"), null);
      await page.waitForSelector("toolnexus-chat[ready]");
      await send(page, el, "hi");
      await send(page, el, "and again");
      assert.match(await transcript(el), /hello from the fake provider/);
      const second = JSON.parse(provider.seen[1].body).messages.map((m) => m.content);
      assert.deepEqual(second, ["Be brief.", "hi", "hello from the fake provider", "and again"], "the history rides along");
      const [call] = provider.seen;
      assert.equal(call.url, "/v1/chat/completions");
      assert.equal(call.headers.authorization, "Bearer sk-local-experiment");
      const body = JSON.parse(call.body);
      assert.equal(body.model, "model-x");
      assert.deepEqual(body.messages[0], { role: "system", content: "Be brief." });
      assert.equal(await el.evaluate((e) => e.apiKey), undefined, "the key cannot be read back");
      assert.ok(!(await page.content()).includes("sk-local-experiment"));
      assert.deepEqual(problems, []);
    });
  } finally {
    await provider.close();
  }
});

test("max-turns caps the loop and the transcript says why", T, async () => {
  const call = { choices: [{ index: 0, finish_reason: "tool_calls", message: { role: "assistant", content: null,
    tool_calls: [{ id: "c1", type: "function", function: { name: "noop", arguments: "{}" } }] } }] };
  const provider = await startHTTP(() => ({ text: JSON.stringify(call) }));
  try {
    await withPage(async (page, problems) => {
      await openPage(page, `<toolnexus-chat base-url="${provider.url}/v1" model="m" max-turns="2"></toolnexus-chat>`);
      const el = chat(page);
      await el.evaluate(async (e) => {
        const { defineTool } = await import("../toolnexus.mjs");
        e.tools = [defineTool({ name: "noop", description: "does nothing", run: () => "ok" })];
      });
      await page.waitForSelector("toolnexus-chat[ready]");
      await send(page, el, "loop forever");
      assert.equal(provider.seen.length, 2);
      assert.match(await transcript(el), /The run stopped early \(maxTurns\)/);
      assert.equal((await events(page, "toolnexus:done"))[0].detail.result.status, "incomplete");
      assert.deepEqual(problems, []);
    });
  } finally {
    await provider.close();
  }
});

test("remote mode against the Worker on workerd: decline and approve; no wasm downloaded", T, async () => {
  const mock = await startWorkerMock();
  let worker;
  try {
    worker = await startWorker({
      LLM_BASE_URL: `${mock.url}/v1`, LLM_MODEL: "mock-model", LLM_API_KEY: "sk-embed-test-key",
      STATE_SECRET: "embed-state-secret-0123456789abcdef", ALLOWED_ORIGINS: server.url.replace(/\/$/, ""),
    });
    await withPage(async (page, problems) => {
      const wasm = [];
      page.on("request", (r) => { if (r.url().endsWith(".wasm")) wasm.push(r.url()); });
      await openPage(page, `<toolnexus-chat endpoint="${worker.url}"></toolnexus-chat>`);
      const el = chat(page);

      let settled = await send(page, el, "refund order 42", { wait: false });
      await answerDialog(page, { approve: false, reason: "past the refund window" });
      await settled();
      let text = await transcript(el);
      assert.match(text, /past the refund window/);
      assert.doesNotMatch(text, /refunded order 42/);
      const pending = await events(page, "toolnexus:pending");
      assert.equal(pending.length, 1);
      assert.equal(pending[0].detail.request.data.tool, "refund");
      assert.equal(await el.locator(".entry.declined").textContent(), "Declinedpast the refund window", "the same Declined entry as in local mode");
      assert.equal(await el.locator(".entry.error").count(), 0);

      settled = await send(page, el, "refund order 42 again", { wait: false });
      await answerDialog(page, { approve: true });
      await settled();
      text = await transcript(el);
      assert.match(text, /done: refunded order 42/);
      const done = await events(page, "toolnexus:done");
      assert.equal(done.length, 2);
      assert.equal(done[1].detail.result.status, "done");
      assert.equal(done[1].detail.result.state, undefined);
      assert.deepEqual(wasm, [], "remote mode loads no wasm");
      const sent = JSON.stringify(mock.requests.at(-2).body.messages);
      assert.match(sent, /past the refund window/, "the first exchange went back as history");
      assert.ok(!text.includes("sk-embed-test-key"));
      assert.deepEqual(problems, []);
    });
  } finally {
    await worker?.dispose().catch(() => {});
    await mock.close();
  }
});

test("remote mode from an origin the Worker does not allow: the element says to set ALLOWED_ORIGINS, not \"Failed to fetch\"", T, async () => {
  const mock = await startWorkerMock();
  let worker;
  try {
    // No ALLOWED_ORIGINS: the Worker refuses the page's preflight (issue 33).
    worker = await startWorker({
      LLM_BASE_URL: `${mock.url}/v1`, LLM_MODEL: "mock-model", LLM_API_KEY: "sk-embed-test-key",
      STATE_SECRET: "embed-state-secret-0123456789abcdef",
    });
    await withPage(async (page, problems) => {
      await openPage(page, `<toolnexus-chat endpoint="${worker.url}"></toolnexus-chat>`);
      const el = chat(page);
      await send(page, el, "refund order 42");
      const origin = new URL(server.url).origin;
      const [error] = await events(page, "toolnexus:error");
      assert.equal(error.detail.message, `toolnexus-chat: the Worker at ${new URL(worker.url).origin} does not allow requests ` +
        `from this page's origin (${origin}): add ${origin} to its ALLOWED_ORIGINS setting`);
      assert.equal(await el.locator(".entry.error .text").textContent(), error.detail.message);
      assert.equal(mock.requests.length, 0, "nothing ran");
      // The browser reports the refused preflight on the console itself: that is all it may say.
      assert.ok(problems.every((p) => /CORS|Failed to load resource|net::ERR_FAILED/.test(p)), problems.join("\n"));
    });
  } finally {
    await worker?.dispose().catch(() => {});
    await mock.close();
  }
});

test("a width change keeps the transcript at its end, and leaves it where the person scrolled", T, async () => {
  await withPage(async (page, problems) => {
    await openPage(page, `<toolnexus-chat id="w" demo style="--toolnexus-height: 220px"></toolnexus-chat>`);
    const el = chat(page, "w");
    await send(page, el, "what is 2+3");
    await send(page, el, "hello"); // a long answer last: narrower, it takes more lines below what is in view
    const log = el.getByRole("log");
    // gap: how far the transcript is from its end, once a frame has laid it out.
    const gap = () => log.evaluate((l) => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(() =>
      ok(l.scrollHeight - l.clientHeight - l.scrollTop)))));
    assert.ok(await log.evaluate((l) => l.scrollHeight > l.clientHeight + 100), "the transcript overflows");
    assert.ok(await gap() <= 2);
    // Narrower: the text wraps into more lines, the end moves down (issue 33).
    await page.setViewportSize({ width: 375, height: 700 });
    await page.waitForFunction(() => document.querySelector("toolnexus-chat").shadowRoot.querySelector("[part=transcript]").clientWidth < 370);
    assert.ok(await gap() <= 2, `not at the end after a width change: ${await gap()} px above it`);
    // Scrolled up to read: a width change does not pull the transcript down.
    await log.evaluate((l) => { l.scrollTop = 0; });
    await page.waitForFunction(() => document.querySelector("toolnexus-chat").shadowRoot.querySelector("[part=transcript]").scrollTop === 0);
    await page.setViewportSize({ width: 1000, height: 700 });
    await page.waitForFunction(() => document.querySelector("toolnexus-chat").shadowRoot.querySelector("[part=transcript]").clientWidth > 600);
    assert.equal(await log.evaluate((l) => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(() => ok(l.scrollTop))))), 0);
    assert.deepEqual(problems, []);
  }, { viewport: { width: 1280, height: 700 } });
});

test("two elements on one page keep separate tools, dialogs and transcripts", T, async () => {
  await withPage(async (page, problems) => {
    await openPage(page, `<toolnexus-chat demo id="a"></toolnexus-chat><toolnexus-chat demo id="b"></toolnexus-chat>`);
    const a = chat(page, "a");
    const b = chat(page, "b");
    await a.evaluate(async (e) => {
      const { defineTool } = await import("../toolnexus.mjs");
      e.tools = [defineTool({ name: "time", description: "the time", run: () => "teatime" })];
    });
    await page.waitForSelector("#a[ready]");
    // Both run at once: b halts on its dialog while a's run goes on.
    const aSettled = await send(page, a, "add 2 and 3", { wait: false });
    const bSettled = await send(page, b, "refund order 9", { wait: false });
    await page.getByRole("dialog").waitFor();
    await aSettled();
    await answerDialog(page, { approve: true });
    await bSettled();
    await send(page, a, "what time is it");
    await send(page, b, "what time is it");
    const ta = await transcript(a);
    const tb = await transcript(b);
    assert.match(ta, /2 \+ 3 = 5/);
    assert.match(ta, /It is teatime\./);
    assert.doesNotMatch(ta, /refund/);
    assert.match(tb, /refunded order 9/);
    assert.match(tb, /It is \d{4}-\d\d-\d\dT/);
    assert.doesNotMatch(tb, /teatime|2 \+ 3/);
    const targets = (await events(page, "toolnexus:done")).map((e) => e.target);
    assert.deepEqual(targets.sort(), ["a", "a", "b", "b"]);
    assert.deepEqual(problems, []);
  });
});

test("properties set before the element is defined still take effect", T, async () => {
  await withPage(async (page, problems) => {
    // A classic script runs during parsing, before the module defines the element.
    await openPage(page, `<toolnexus-chat demo></toolnexus-chat>
<script>document.querySelector("toolnexus-chat").tools = [{ name: "time", description: "the time",
  inputSchema: { type: "object", properties: {} }, run: () => "too early to tell" }];</script>`);
    const el = chat(page);
    assert.equal(await el.evaluate((e) => Object.hasOwn(e, "tools")), false, "the own property was moved to the accessor");
    await send(page, el, "what time is it");
    assert.match(await transcript(el), /It is too early to tell\./);
    assert.deepEqual(problems, []);
  });
});

test("a tool result containing HTML is shown as text and runs no script", T, async () => {
  await withPage(async (page, problems) => {
    await openPage(page, `<toolnexus-chat demo></toolnexus-chat>`);
    const el = chat(page);
    const hostile = `<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>`;
    await el.evaluate(async (e, hostile) => {
      const { defineTool } = await import("../toolnexus.mjs");
      e.tools = [defineTool({ name: "add", description: "add", run: () => hostile })];
    }, hostile);
    await page.waitForSelector("toolnexus-chat[ready]");
    await send(page, el, "add 2 and 3");
    const text = await transcript(el);
    assert.ok(text.includes(hostile), "the tool result is shown literally");
    assert.ok(text.includes(`2 + 3 = ${hostile}`), "the model's echo too");
    assert.equal(await el.locator("img, script").count(), 0, "no element was created from it");
    await page.waitForTimeout(200);
    assert.equal(await page.evaluate(() => window.__pwned), undefined);
    assert.deepEqual(problems, []);
  });
});

test("a missing wasm is reported in the transcript and as toolnexus:error", T, async () => {
  await withPage(async (page, problems) => {
    await openPage(page, `<toolnexus-chat demo wasm="../nope.wasm"></toolnexus-chat>`, { ready: false });
    await page.waitForFunction(() => window.__tnx.some((e) => e.type === "toolnexus:error"));
    const [err] = await events(page, "toolnexus:error");
    assert.match(err.detail.message, /HTTP 404/);
    assert.match(await transcript(chat(page)), /HTTP 404/);
    assert.ok(problems.every((p) => /404/.test(p)), problems.join("\n"));
  });
});
