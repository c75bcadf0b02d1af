// persist.test.mjs — streaming in the UI, the browser conversation store and
// durable approvals, end to end in headless Debian chromium (playwright-core):
// the demo page and <toolnexus-chat persist>, with the offline demo model.
//
//   ./build.sh build && cd tests && timeout 300 node --test persist.test.mjs
//
// The bundle is read from $TOOLNEXUS_DIST/web (else ../dist/web) and served
// from a temporary copy, so element pages can be written beside the examples.

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { startSite, withPage as openPage } from "./chromium.mjs";
import { idle, openDemoAt, send } from "./demo-page.mjs";

const here = fileURLToPath(new URL(".", import.meta.url));
const WEB = process.env.TOOLNEXUS_WEB ?? join(process.env.TOOLNEXUS_DIST ?? join(here, "..", "dist"), "web");
const T = { timeout: 60_000 };

let site;
let root;
let server;
let browser;
let pageSeq = 0;

before(async () => {
  assert.ok(existsSync(join(WEB, "toolnexus.wasm")), `no build in ${WEB}: run ./build.sh first`);
  site = await startSite(WEB, { scratch: true });
  ({ root, server, browser } = site);
});

after(async () => {
  await site?.close();
});

// withPage: a fresh context per test, always closed (chromium.mjs).
const withPage = (fn) => openPage(browser, fn);

// --- the demo page ---

const openDemo = (page, query = "") => openDemoAt(page, `${server.url}${query}`);

const demoLog = (page) => page.locator("#transcript").textContent();

// saved reads what the page's store holds under id (null when nothing).
const saved = (page, id) => page.evaluate(async (id) => {
  const { browserStore } = await import(new URL("/store.mjs", location.href).href);
  return browserStore().get(id);
}, id);

// recordStates makes the page remember every text an element matching
// selector shows, at each DOM change and each animation frame.
async function recordStates(page, selector, shadowHost = null) {
  await page.evaluate(({ selector, shadowHost }) => {
    const root = shadowHost ? document.querySelector(shadowHost).shadowRoot : document;
    window.__states = [];
    const take = () => {
      const last = [...root.querySelectorAll(selector)].at(-1);
      const text = last?.textContent;
      if (text != null && window.__states.at(-1) !== text) window.__states.push(text);
    };
    new MutationObserver(take).observe(root, { subtree: true, childList: true, characterData: true });
    const frame = () => { take(); requestAnimationFrame(frame); };
    frame();
  }, { selector, shadowHost });
}

// hide makes the page report itself hidden, as when the person switches tabs.
const hide = (page) => page.evaluate(() => {
  Object.defineProperty(document, "visibilityState", { configurable: true, get: () => "hidden" });
  Object.defineProperty(document, "hidden", { configurable: true, get: () => true });
  document.dispatchEvent(new Event("visibilitychange"));
});

// hideAndReturn hides the page and shows it again in one task: the person
// is back while the hide's halt and save are still in flight (issue 33).
const hideAndReturn = (page) => page.evaluate(() => {
  Object.defineProperty(document, "visibilityState", { configurable: true, get: () => "hidden" });
  Object.defineProperty(document, "hidden", { configurable: true, get: () => true });
  document.dispatchEvent(new Event("visibilitychange"));
  delete document.visibilityState;
  delete document.hidden;
  document.dispatchEvent(new Event("visibilitychange"));
});

// partials asserts that at least two different partial states of final were seen.
function assertStreamed(states, final) {
  const partial = states.filter((s) => s.length > 0 && s !== final && final.startsWith(s));
  assert.ok(new Set(partial).size >= 2, `at least two partial states of "${final}", saw ${JSON.stringify(states)}`);
}

test("demo page: the answer streams in, tool calls and results show as they happen", T, async () => {
  await withPage(async (page, problems) => {
    await openDemo(page);
    await recordStates(page, "#transcript .entry.assistant span:last-child");
    await send(page, "hello");
    await idle(page);
    const final = await page.locator("#transcript .entry.assistant span:last-child").last().textContent();
    assert.match(final, /^I am the offline demo model\./);
    // Issue 26: the greeting offers what this page can do, its team and built-ins included.
    assert.deepEqual([...final.matchAll(/"([^"]+)"/g)].map((m) => m[1]),
      ["refund order 42", "add 2 and 3", "what is 2+3", "divide 1 by 0", "what time is it", "write a note", "review order 42"]);
    assertStreamed(await page.evaluate(() => window.__states), final);

    // A tool call and its result are in the transcript before the answer starts.
    await page.evaluate(() => {
      window.__order = [];
      new MutationObserver((records) => {
        for (const r of records) for (const n of r.addedNodes) if (n.classList?.contains("entry")) window.__order.push(n.className);
      }).observe(document.getElementById("transcript"), { childList: true });
    });
    await send(page, "add 2 and 3");
    await idle(page);
    assert.deepEqual(await page.evaluate(() => window.__order),
      ["entry user", "entry tool-call", "entry tool-result", "entry assistant"]);
    assert.match(await demoLog(page), /2 \+ 3 = 5/);
    assert.deepEqual(problems, []);
  });
});

test("demo page: a reload keeps the conversation and continues it", T, async () => {
  await withPage(async (page, problems) => {
    await openDemo(page);
    await send(page, "add 2 and 3");
    await idle(page);
    // Idle means saved: the page goes idle only after the store committed the exchange.
    assert.equal((await saved(page, "demo"))?.messages?.length, 4, "saved by the time the page is idle");
    await page.reload();
    await page.waitForSelector("html[data-ready='1']");
    const text = await demoLog(page);
    assert.match(text, /add 2 and 3/);
    assert.match(text, /2 \+ 3 = 5/);
    await send(page, "what is 4+5");
    await idle(page);
    assert.match(await demoLog(page), /4 \+ 5 = 9/);
    const rec = await saved(page, "demo");
    const users = rec.messages.filter((m) => m.role === "user").map((m) => m.content);
    assert.deepEqual(users, ["add 2 and 3", "what is 4+5"], "the history went on from the saved one");
    assert.equal(rec.pending, undefined);
    assert.equal(await page.evaluate(() => localStorage.length), 0, "IndexedDB is used when the page has it");
    // New conversation forgets it.
    await page.getByRole("button", { name: "New conversation" }).click();
    await page.waitForFunction(async () => !(await (await import("./store.mjs")).browserStore().get("demo")));
    await page.reload();
    await page.waitForSelector("html[data-ready='1']");
    assert.equal(await demoLog(page), "");
    assert.deepEqual(problems, []);
  });
});

// haltDemo starts "refund order <n>", waits for the dialog, then halts the
// wait by `how`: "hidden", "time limit" (the page was opened with a 1 s
// wait limit) or "reload" (pagehide). It returns after the reload, with the
// dialog offered again.
async function haltDemo(page, n, how) {
  await openDemo(page, how === "time limit" ? "?wait-limit=1" : "");
  await send(page, `refund order ${n}`);
  await page.getByRole("dialog").waitFor();
  if (how === "hidden") await hide(page);
  if (how !== "reload") {
    // The dialog closes, the page says the request is saved, and the tool has not run.
    await page.waitForFunction(() => !document.querySelector("dialog[open]") && /saved/.test(document.getElementById("busy").textContent));
    const rec = await saved(page, "demo");
    assert.equal(rec.pending.data.tool, "refund");
    assert.match(rec.messages.at(-1).content, /^\[toolnexus:pending req_\w+\] awaiting an answer; the tool has not run$/);
    const text = await demoLog(page);
    assert.doesNotMatch(text, /refunded|declined|did not refund/, "nothing ran and no refusal was made up");
  }
  await page.reload();
  await page.waitForSelector("html[data-ready='1']");
  const dialog = page.getByRole("dialog");
  await dialog.waitFor();
  assert.equal(await dialog.locator("code.tnx-tool").textContent(), "refund");
  assert.match(await dialog.locator("pre").textContent(), new RegExp(`"order": "${n}"`));
  await page.waitForFunction(() => document.activeElement?.matches("dialog[open] button.tnx-decline"));
  assert.match(await demoLog(page), new RegExp(`refund order ${n}`), "the transcript came back with the dialog");
  // Issue 26: the status says what it waits for, and the waiting request's
  // button sits beside New conversation instead of pushing it to a row of its own.
  assert.equal(await page.locator("#busy").textContent(), "Waiting for your approval…");
  const rows = await page.evaluate(() => ["answer", "reset"].map((id) => {
    const b = document.getElementById(id);
    return b.hidden ? null : Math.round(b.getBoundingClientRect().top);
  }));
  assert.ok(rows[0] !== null && rows[0] === rows[1], `Answer and New conversation on one row: ${rows}`);
  return dialog;
}

// callLabels: the label of every tool call line in the demo's transcript.
const callLabels = (page) => page.locator("#transcript .entry.tool-call .who").allTextContents();

const count = (text, re) => (text.match(re) ?? []).length;

test("demo page: an approval left open while the page is hidden survives a reload; Approve runs the tool once", T, async () => {
  await withPage(async (page, problems) => {
    const dialog = await haltDemo(page, 42, "hidden");
    await dialog.getByRole("button", { name: "Approve" }).click();
    await idle(page);
    const text = await demoLog(page);
    assert.equal(count(text, /Tool resultrefunded order 42/g), 1, `the tool ran once: ${text}`);
    assert.equal(count(text, /Tool call[^T]*refund \{/g), 1, `the call is shown once: ${text}`);
    assert.match(text, /Done: refunded order 42\./);
    // Issue 26: the answer lands on the call's line, restored from the saved view.
    assert.deepEqual(await callLabels(page), ["Tool call · approved"]);
    const rec = await saved(page, "demo");
    assert.equal(rec.pending, undefined, "nothing waits any more");
    assert.ok(!JSON.stringify(rec.messages).includes("toolnexus:pending"), "the placeholder was replaced");
    // A reload now offers nothing and runs nothing again.
    await page.reload();
    await page.waitForSelector("html[data-ready='1']");
    await page.waitForTimeout(300);
    assert.equal(await page.locator("dialog[open]").count(), 0);
    assert.equal(count(await demoLog(page), /Tool resultrefunded order 42/g), 1);
    assert.deepEqual(await callLabels(page), ["Tool call · approved"], "the answer was saved with the line");
    assert.deepEqual(problems, []);
  });
});

test("demo page: the wait limit passes, reload, Decline — the model hears the person's reason", T, async () => {
  await withPage(async (page, problems) => {
    const dialog = await haltDemo(page, 7, "time limit");
    await dialog.getByRole("textbox", { name: "Reason" }).fill("not this one");
    await dialog.getByRole("button", { name: "Decline" }).click();
    await idle(page);
    const text = await demoLog(page);
    assert.match(text, /I did not refund order 7: "not this one"/);
    assert.doesNotMatch(text, /refunded order 7/);
    assert.deepEqual(await callLabels(page), ["Tool call · declined"]);
    assert.equal((await saved(page, "demo")).pending, undefined);
    assert.deepEqual(problems, []);
  });
});

test("demo page: reloading with the dialog open (pagehide) offers it again; Approve", T, async () => {
  await withPage(async (page, problems) => {
    const dialog = await haltDemo(page, 5, "reload");
    await dialog.getByRole("button", { name: "Approve" }).click();
    await idle(page);
    const text = await demoLog(page);
    assert.equal(count(text, /Tool resultrefunded order 5/g), 1);
    assert.match(text, /Done: refunded order 5\./);
    assert.deepEqual(problems, []);
  });
});

test("demo page: hidden, then visible again — the same page offers the request again", T, async () => {
  await withPage(async (page, problems) => {
    await openDemo(page);
    await send(page, "refund order 3");
    await page.getByRole("dialog").waitFor();
    await hide(page);
    await page.waitForFunction(() => !document.querySelector("dialog[open]"));
    await page.evaluate(() => {
      delete document.visibilityState; // back to the real (visible) getters
      delete document.hidden;
      document.dispatchEvent(new Event("visibilitychange"));
    });
    const dialog = page.getByRole("dialog");
    await dialog.waitFor();
    await dialog.getByRole("button", { name: "Approve" }).click();
    await idle(page);
    assert.equal(count(await demoLog(page), /Tool resultrefunded order 3/g), 1);
    assert.deepEqual(problems, []);
  });
});

test("demo page: back while the hide's save is in flight — the request is offered once it is saved", T, async () => {
  await withPage(async (page, problems) => {
    await openDemo(page);
    await send(page, "refund order 4");
    await page.getByRole("dialog").waitFor();
    await hideAndReturn(page);
    const dialog = page.getByRole("dialog");
    await dialog.waitFor();
    assert.match(await dialog.locator("pre").textContent(), /"order": "4"/);
    await dialog.getByRole("button", { name: "Approve" }).click();
    await idle(page);
    assert.equal(count(await demoLog(page), /Tool resultrefunded order 4/g), 1);
    assert.equal((await saved(page, "demo"))?.pending, undefined, "the answered request is no longer saved");
    assert.deepEqual(problems, []);
  });
});

// --- <toolnexus-chat> ---

async function openElement(page, attrs, { reuse } = {}) {
  const name = reuse ?? `persist-${++pageSeq}.html`;
  if (!reuse) {
    await writeFile(join(root, "examples", name), `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>t</title>
<script type="module" src="../toolnexus-chat.mjs"></script></head><body>
<toolnexus-chat ${attrs}></toolnexus-chat>
</body></html>`);
  }
  await page.goto(`${server.url}examples/${name}`);
  await page.waitForSelector("toolnexus-chat[ready]");
  await page.evaluate(() => {
    window.__tnx = [];
    for (const type of ["toolnexus:tool-call", "toolnexus:pending", "toolnexus:done", "toolnexus:error"]) {
      document.addEventListener(type, (e) => window.__tnx.push({ type, detail: JSON.parse(JSON.stringify(e.detail ?? null)) }));
    }
  });
  return name;
}

const el = (page) => page.locator("toolnexus-chat");
const elLog = (page) => el(page).getByRole("log").textContent();
const settled = (page, n) => page.waitForFunction((n) => window.__tnx.filter((e) => /done|error/.test(e.type)).length >= n, n);

async function elSend(page, text) {
  await el(page).getByRole("textbox", { name: "Message" }).fill(text);
  await el(page).getByRole("button", { name: "Send" }).click();
}

test("element: the answer streams in; tool results show as they happen", T, async () => {
  await withPage(async (page, problems) => {
    await openElement(page, "demo");
    await recordStates(page, ".entry.assistant .text", "toolnexus-chat");
    await elSend(page, "hello");
    await settled(page, 1);
    const final = await el(page).locator(".entry.assistant .text").last().textContent();
    assert.match(final, /^I am the offline demo model\./);
    // Issue 26: the element has the demo tools, no built-ins and no team: the greeting says so.
    assert.deepEqual([...final.matchAll(/"([^"]+)"/g)].map((m) => m[1]),
      ["refund order 42", "add 2 and 3", "what is 2+3", "divide 1 by 0", "what time is it"]);
    assertStreamed(await page.evaluate(() => window.__states), final);
    await elSend(page, "add 2 and 3");
    await settled(page, 2);
    const calls = await page.evaluate(() => window.__tnx.filter((e) => e.type === "toolnexus:tool-call").map((e) => e.detail));
    assert.deepEqual(calls.map((c) => [c.name, c.args, c.output, c.isError]), [["add", { a: 2, b: 3 }, "5", false]]);
    assert.match(await elLog(page), /Tool calladd \{"a":2,"b":3\}Tool result5Assistant2 \+ 3 = 5/);
    assert.deepEqual(problems, []);
  });
});

// elCallLabels: the label of every tool call line in the element's transcript.
const elCallLabels = (page) => page.locator("toolnexus-chat").locator(".entry.tool-call .who").allTextContents();

test("element persist: a reload keeps the conversation; a hidden page's approval survives; Approve runs once", T, async () => {
  await withPage(async (page, problems) => {
    const name = await openElement(page, `demo persist="shop"`);
    await elSend(page, "add 2 and 3");
    await settled(page, 1);
    await page.reload();
    await page.waitForSelector("toolnexus-chat[ready]");
    await page.waitForFunction(() => /2 \+ 3 = 5/.test(document.querySelector("toolnexus-chat").shadowRoot.querySelector("[part=transcript]").textContent));

    await openElement(page, "", { reuse: name });
    await elSend(page, "refund order 9");
    await page.getByRole("dialog").waitFor();
    await hide(page);
    await settled(page, 1);
    const [done] = await page.evaluate(() => window.__tnx.filter((e) => e.type === "toolnexus:done"));
    assert.equal(done.detail.result.status, "pending");
    assert.equal(done.detail.result.durable, true);
    assert.doesNotMatch(await elLog(page), /refunded|declined/);

    await openElement(page, "", { reuse: name });
    const dialog = page.getByRole("dialog");
    await dialog.waitFor();
    assert.equal(await dialog.locator("code.tnx-tool").textContent(), "refund");
    assert.match(await dialog.locator("pre").textContent(), /"order": "9"/);
    await dialog.getByRole("button", { name: "Approve" }).click();
    await settled(page, 1);
    const text = await elLog(page);
    assert.match(text, /2 \+ 3 = 5/, "the earlier exchange is still shown");
    assert.equal(count(text, /Tool resultrefunded order 9/g), 1, text);
    assert.equal(count(text, /Tool call[^T]*refund \{/g), 1, `the call is shown once: ${text}`);
    assert.match(text, /Done: refunded order 9\./);
    // Issue 26: the element labels the answered call, on its restored line.
    assert.deepEqual(await elCallLabels(page), ["Tool call", "Tool call · approved"]);
    const calls = await page.evaluate(() => window.__tnx.filter((e) => e.type === "toolnexus:tool-call").map((e) => e.detail.output));
    assert.deepEqual(calls, ["refunded order 9"]);
    assert.deepEqual(problems, []);
  });
});

test("element persist: back while the hide's save is in flight — the request is offered once it is saved", T, async () => {
  await withPage(async (page, problems) => {
    await openElement(page, `demo persist="back"`);
    await elSend(page, "refund order 5");
    await page.getByRole("dialog").waitFor();
    await hideAndReturn(page);
    await settled(page, 1); // the hidden page halted and saved the run
    const dialog = page.getByRole("dialog");
    await dialog.waitFor();
    await dialog.getByRole("button", { name: "Approve" }).click();
    await settled(page, 2);
    assert.equal(count(await elLog(page), /Tool resultrefunded order 5/g), 1);
    assert.deepEqual(await elCallLabels(page), ["Tool call · approved"]);
    assert.deepEqual(problems, []);
  });
});

test("element persist: the wait limit passes, reload, Decline with a reason", T, async () => {
  await withPage(async (page, problems) => {
    const name = await openElement(page, `demo persist="limit" wait-limit="1"`);
    await elSend(page, "refund order 11");
    await page.getByRole("dialog").waitFor();
    await settled(page, 1); // the limit halted the run
    assert.equal(await page.locator("dialog[open]").count(), 0);
    await openElement(page, "", { reuse: name });
    const dialog = page.getByRole("dialog");
    await dialog.waitFor();
    assert.match(await dialog.locator("pre").textContent(), /"order": "11"/);
    await dialog.getByRole("textbox", { name: "Reason" }).fill("over the limit");
    await dialog.getByRole("button", { name: "Decline" }).click();
    await settled(page, 1);
    const text = await elLog(page);
    assert.match(text, /I did not refund order 11: "over the limit"/);
    assert.doesNotMatch(text, /refunded order 11/);
    assert.deepEqual(await elCallLabels(page), ["Tool call · declined"]);
    assert.deepEqual(problems, []);
  });
});

test("store: IndexedDB with a synchronous journal for pagehide; localStorage without IndexedDB; memory without either", T, async () => {
  await withPage(async (page) => {
    await openDemo(page);
    const out = await page.evaluate(async () => {
      const { browserStore } = await import("./store.mjs");
      const ls = browserStore({ name: "t", indexedDB: null });
      await ls.save("a", [{ role: "user", content: "hi" }], { pending: { id: "r1" } });
      const got = await ls.get("a");
      const raw = localStorage.getItem("t:a");
      await ls.clear("a");
      // An urgent save (pagehide) also journals synchronously; get() prefers the newer copy and moves it into IndexedDB.
      const idb = browserStore({ name: "j" });
      await idb.ready();
      await idb.save("c", ["old"]);
      idb.save("c", ["new"], {}, { urgent: true }).catch(() => {});
      const journaled = localStorage.getItem("j:journal:c") !== null;
      const newest = (await idb.get("c")).messages;
      const journalLeft = localStorage.getItem("j:journal:c");
      // A write still in flight at pagehide (a save just before a reload) is journaled then.
      const late = browserStore({ name: "late" });
      await late.ready();
      const inFlight = late.save("d", ["last words"]);
      window.dispatchEvent(new PageTransitionEvent("pagehide", { persisted: false }));
      const lateJournal = JSON.parse(localStorage.getItem("late:journal:d") ?? "null")?.messages ?? null;
      await inFlight;
      const lateRead = (await late.get("d")).messages;
      const lateLeft = localStorage.getItem("late:journal:d");
      // Two saves in the same millisecond: the second is still the newer one.
      const quick = browserStore({ name: "quick" });
      await quick.ready();
      await quick.save("e", ["first"]);
      const second = quick.save("e", ["second"], {}, { urgent: true });
      await second;
      const quickRead = (await quick.get("e")).messages;
      const mem = browserStore({ indexedDB: null, localStorage: null });
      await mem.save("b", [1]);
      return { lateJournal, lateRead, lateLeft, quickRead, journaled, newest, journalLeft, idbKind: idb.kind, kind: ls.kind, got, raw: !!raw, cleared: await ls.get("a"), memKind: mem.kind, mem: (await mem.get("b")).messages,
        none: await browserStore().get("nothing-here") };
    });
    assert.equal(out.idbKind, "indexeddb");
    assert.deepEqual(out.lateJournal, ["last words"], "pagehide journaled the write in flight");
    assert.deepEqual(out.lateRead, ["last words"]);
    assert.equal(out.lateLeft, null, "the committed write made the journal entry redundant");
    assert.deepEqual(out.quickRead, ["second"]);
    assert.ok(out.journaled, "the urgent save wrote its journal entry at once");
    assert.deepEqual(out.newest, ["new"]);
    assert.equal(out.journalLeft, null, "the journal entry was moved into IndexedDB");
    assert.equal(out.kind, "localstorage");
    assert.deepEqual(out.got.messages, [{ role: "user", content: "hi" }]);
    assert.deepEqual(out.got.pending, { id: "r1" });
    assert.ok(out.raw);
    assert.equal(out.cleared, null);
    assert.equal(out.memKind, "memory");
    assert.deepEqual(out.mem, [1]);
    assert.equal(out.none, null);
  });
});
