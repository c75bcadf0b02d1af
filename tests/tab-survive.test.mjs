// tab-survive.test.mjs — a tab killed mid-run continues the run when the page
// opens again (issue 31), in headless Debian chromium: the demo page and
// <toolnexus-chat persist> journal each run in IndexedDB; a CDP session's
// Page.crash kills the renderer (no unload, no pagehide: as a crash or an
// OOM kill would), and a new page in the same browser context opens the
// page again. Also the dialog of a question about a lost outcome on its own:
// its three answers, "Decide later" and Escape.
//
//   ./build.sh && cd tests && timeout 600 node --test --test-force-exit tab-survive.test.mjs

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { startSite } from "./chromium.mjs";
import { idle, openDemoAt, send } from "./demo-page.mjs";

const here = fileURLToPath(new URL(".", import.meta.url));
const WEB = process.env.TOOLNEXUS_WEB ?? join(process.env.TOOLNEXUS_DIST ?? join(here, "..", "dist"), "web");
const T = { timeout: 120_000 };
const QUESTION = 'refund {"order":"42"} was running when the run stopped: did it happen?';

let site;
before(async () => {
  assert.ok(existsSync(join(WEB, "toolnexus.wasm")), `no build in ${WEB}: run ./build.sh first`);
  site = await startSite(WEB, { scratch: true });
  await writeFile(join(site.root, "blank.html"), '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>t</title><link rel="icon" href="data:,"></head><body></body></html>');
});

after(async () => {
  await site?.close();
});

// withContext runs fn(open) in a fresh browser context (its own storage),
// always closed afterwards; open() makes a page that records console
// errors, page errors and JS dialogs in problems.
async function withContext(fn) {
  const context = await site.browser.newContext();
  context.setDefaultTimeout(30_000);
  const problems = [];
  const open = async () => {
    const page = await context.newPage();
    page.on("console", (m) => { if (m.type() === "error") problems.push(`console: ${m.text().slice(0, 300)}`); });
    page.on("pageerror", (e) => problems.push(`pageerror: ${e.message.slice(0, 300)}`));
    page.on("dialog", (d) => { problems.push(`js dialog: ${d.message()}`); d.dismiss().catch(() => {}); });
    return page;
  };
  try {
    await fn(open, problems);
  } finally {
    await context.close();
  }
}

// crash kills the page's renderer: no unload, no pagehide, nothing saved on
// the way out.
async function crash(page) {
  const cdp = await page.context().newCDPSession(page);
  const crashed = new Promise((r) => page.once("crash", r));
  cdp.send("Page.crash").catch(() => {}); // the target dies before it answers
  await crashed;
  await page.close();
}

// journalKinds reads a journal's entry kinds in the page (IndexedDB).
const journalKinds = (page, name) => page.evaluate(async (name) => {
  const { browserJournal } = await import(new URL("/browser-journal.mjs", location.href).href);
  return (await browserJournal(name).load()).map((t) => JSON.parse(t).kind);
}, name);

// untilJournal waits until the journal's last entries are kinds.
function untilJournal(page, name, kinds) {
  return page.waitForFunction(async ({ name, kinds }) => {
    const { browserJournal } = await import(new URL("/browser-journal.mjs", location.href).href);
    const got = (await browserJournal(name).load()).map((t) => JSON.parse(t).kind);
    return got.length >= kinds.length && kinds.every((k, i) => got[got.length - kinds.length + i] === k);
  }, { name, kinds }, { polling: 25 });
}

const saved = (page, id) => page.evaluate(async (id) => {
  const { browserStore } = await import(new URL("/store.mjs", location.href).href);
  return browserStore().get(id);
}, id);

const demoLog = (page) => page.locator("#transcript").textContent();
const count = (text, re) => (text.match(re) ?? []).length;

// --- the demo page ---

// crashDuringRefund opens the demo with a refund that takes a minute, has
// it approved, kills the tab while it runs, and opens the page again.
// "While it runs" is the refund's own delay having begun (the demo's
// ?tool-delay timer, flagged by an init script): a journal entry read in the
// page is no proof of that. Once, in CI, the reloaded page found no "call"
// entry although the old page had read one, and ran the refund as a call
// never begun.
const TOOL_DELAY_MS = 61_234; // a delay nothing else in the page sets
async function crashDuringRefund(open) {
  const page = await open();
  await page.addInitScript((ms) => {
    const setTimeout = window.setTimeout;
    window.setTimeout = (fn, delay, ...rest) => {
      if (delay === ms) window.__toolDelayBegun = true;
      return setTimeout(fn, delay, ...rest);
    };
  }, TOOL_DELAY_MS);
  await openDemoAt(page, `${site.server.url}?tool-delay=${TOOL_DELAY_MS}`);
  await send(page, "refund order 42");
  await page.getByRole("dialog").getByRole("button", { name: "Approve" }).click();
  await page.waitForFunction(() => window.__toolDelayBegun === true); // the refund runs
  await untilJournal(page, "demo", ["answer", "decision", "call"]); // its outcome is not recorded
  await crash(page);
  const again = await open();
  await again.goto(site.server.url);
  return again;
}

test("demo: a tab killed during the model call continues the run when it opens again", T, async () => {
  await withContext(async (open, problems) => {
    const page = await open();
    await openDemoAt(page, `${site.server.url}?slow=400`);
    await send(page, "add 2 and 3");
    // The add ran and its outcome is recorded; the model's answer is on its way.
    await untilJournal(page, "demo", ["call", "outcome", "model"]);
    assert.equal((await saved(page, "demo"))?.run?.prompt, "add 2 and 3", "the run is saved as going on");
    await crash(page);

    const again = await open();
    await again.goto(site.server.url);
    await again.waitForFunction(() => /2 \+ 3 = 5/.test(document.getElementById("transcript").textContent));
    await idle(again);
    const text = await demoLog(again);
    assert.equal(count(text, /The page closed while a run was going on/g), 1, text);
    assert.equal(count(text, /add 2 and 3/g), 1, "the prompt is shown once");
    assert.equal(count(text, /Tool result5/g), 1, text);
    assert.equal(count(text, /2 \+ 3 = 5/g), 1, text);
    const rec = await saved(again, "demo");
    assert.equal(rec.run, undefined, "the run is over");
    assert.deepEqual(rec.messages.map((m) => m.role), ["user", "assistant", "tool", "assistant"]);
    assert.equal(rec.messages[3].content, "2 + 3 = 5");
    assert.deepEqual(await journalKinds(again, "demo"), [], "the journal is cleared once the result is saved");
    // The conversation goes on from there.
    await send(again, "what is 4+5");
    await idle(again);
    assert.match(await demoLog(again), /4 \+ 5 = 9/);
    assert.deepEqual(problems, []);
  });
});

test("demo: a tab killed during an approved refund: the dialog asks whether it happened; 'It happened' records the result", T, async () => {
  await withContext(async (open, problems) => {
    const page = await crashDuringRefund(open);
    const dialog = page.getByRole("dialog");
    await dialog.waitFor();
    assert.equal(await dialog.getByRole("heading").textContent(), "Did this tool call happen?");
    assert.equal(await dialog.locator(".tnx-question").textContent(), QUESTION);
    assert.deepEqual(await dialog.getByRole("button").allTextContents(), ["Decide later", "It did not happen", "Run it again", "It happened"]);
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), "Decide later", "the choice that records nothing has focus");
    assert.equal(await page.locator("#busy").textContent(), "Waiting for you to say whether a call happened…");
    assert.deepEqual((await page.locator("#transcript .entry.tool-call .who").allTextContents()).at(-1), "Tool call · did it happen?");
    await dialog.getByLabel("Result, if it happened").fill("refunded (seen in the ledger)");
    await dialog.getByRole("button", { name: "It happened" }).click();
    await page.waitForFunction(() => /Done: refunded \(seen in the ledger\)/.test(document.getElementById("transcript").textContent));
    await idle(page);
    const text = await demoLog(page);
    assert.equal(count(text, /Tool call · happened/g), 1, text);
    assert.equal(count(text, /Tool resultrefunded \(seen in the ledger\)/g), 1, text);
    assert.doesNotMatch(text, /refunded order 42/, "the refund did not run again");
    const rec = await saved(page, "demo");
    assert.equal(rec.run, undefined);
    assert.equal(rec.pending, undefined);
    assert.deepEqual(problems, []);
  });
});

test("demo: Escape leaves the question for later, nothing recorded; it comes back; 'Run it again' runs the refund once more", T, async () => {
  await withContext(async (open, problems) => {
    const page = await crashDuringRefund(open);
    const dialog = page.getByRole("dialog");
    await dialog.waitFor();
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
    await idle(page);
    assert.match(await demoLog(page), /Left for later: nothing was recorded/);
    const kinds = await journalKinds(page, "demo");
    assert.equal(kinds.at(-1), "suspend", `the question is kept, unanswered: ${kinds}`);
    assert.equal(kinds.filter((k) => k === "answer").length, 1, "only the approval is recorded");
    assert.ok(await page.getByRole("button", { name: "Answer the waiting request" }).isVisible());

    // A reload brings the question back; Escape again, then the button.
    await page.reload();
    await dialog.waitFor();
    assert.equal(await dialog.locator(".tnx-question").textContent(), QUESTION);
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
    await idle(page);
    await page.getByRole("button", { name: "Answer the waiting request" }).click();
    await dialog.waitFor();
    await dialog.getByRole("button", { name: "Run it again" }).click();
    await page.waitForFunction(() => /Done: refunded order 42\./.test(document.getElementById("transcript").textContent));
    await idle(page);
    const text = await demoLog(page);
    assert.equal(count(text, /Tool call · ran again/g), 1, text);
    assert.equal(count(text, /Tool resultrefunded order 42/g), 1, text);
    assert.equal((await saved(page, "demo")).pending, undefined);
    assert.deepEqual(problems, []);
  });
});

// --- <toolnexus-chat persist> in local mode ---

// The page overrides the demo's refund with one that counts its starts in
// localStorage (which survives the crash) and, until ?fast, never finishes.
const ELEMENT_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>t</title><link rel="icon" href="data:,">
<script type="module">
import { defineTool } from "../toolnexus.mjs";
const chat = document.querySelector("toolnexus-chat");
chat.tools = [defineTool({
  name: "refund", description: "Refund an order.", needsApproval: true,
  inputSchema: { type: "object", properties: { order: { type: "string" } }, required: ["order"] },
  run: async ({ order }) => {
    localStorage.setItem("refunds", String(Number(localStorage.getItem("refunds") ?? 0) + 1));
    if (!location.search.includes("fast")) await new Promise(() => {});
    return "refunded order " + order;
  },
})];
</script>
<script type="module" src="../toolnexus-chat.mjs"></script></head><body>
<toolnexus-chat demo persist="shop"></toolnexus-chat>
</body></html>`;

test("element persist: a tab killed during an approved refund asks on reload; 'It did not happen' tells the model, and the refund is not run again", T, async () => {
  await writeFile(join(site.root, "examples", "survive-element.html"), ELEMENT_PAGE);
  const url = `${site.server.url}examples/survive-element.html`;
  await withContext(async (open, problems) => {
    const page = await open();
    await page.goto(url);
    await page.waitForSelector("toolnexus-chat[ready]");
    const chat = page.locator("toolnexus-chat");
    await chat.getByRole("textbox", { name: "Message" }).fill("refund order 42");
    await chat.getByRole("button", { name: "Send" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Approve" }).click();
    await untilJournal(page, "toolnexus-chat:shop", ["answer", "decision", "call"]);
    // The journal records the call before the tool starts: wait for the start itself.
    await page.waitForFunction(() => localStorage.getItem("refunds") === "1");
    await crash(page);

    const again = await open();
    await again.goto(url);
    const dialog = again.getByRole("dialog");
    await dialog.waitFor();
    assert.equal(await dialog.locator(".tnx-question").textContent(), QUESTION);
    await dialog.getByLabel("Reason, if it did not happen").fill("not in the ledger");
    await dialog.getByRole("button", { name: "It did not happen" }).click();
    const log = again.locator("toolnexus-chat").getByRole("log");
    await again.waitForFunction(() => /did not happen, I am told: "not in the ledger"/.test(
      document.querySelector("toolnexus-chat").shadowRoot.querySelector("[part=transcript]").textContent));
    await again.waitForFunction(() => !document.querySelector("toolnexus-chat").busy);
    const text = await log.textContent();
    assert.equal(count(text, /The page closed while a run was going on/g), 1, text);
    assert.deepEqual(await again.locator("toolnexus-chat").locator(".entry.tool-call .who").allTextContents(), ["Tool call · not done"]);
    assert.match(text, /recorded it as not done: not in the ledger/);
    assert.equal(await again.evaluate(() => localStorage.getItem("refunds")), "1", "the refund was not run again");
    assert.deepEqual(await journalKinds(again, "toolnexus-chat:shop"), []);
    assert.deepEqual(problems, []);
  });
});

// --- the dialog on its own ---

test("the dialog of a lost outcome: its answers, Enter in each field, choices, Escape and an aborted wait", T, async () => {
  await withContext(async (open, problems) => {
    const page = await open();
    await page.goto(`${site.server.url}blank.html`);
    // ask shows request in a dialog; the answer lands in window.__answer.
    const ask = (request, { abort = false } = {}) => page.evaluate(async ({ request, abort }) => {
      const { approvalDialog } = await import("/approval-dialog.mjs");
      window.__ask ??= approvalDialog();
      window.__answer = undefined;
      const ctrl = new AbortController();
      window.__abort = () => ctrl.abort();
      window.__ask(request, { signal: ctrl.signal }).then((a) => { window.__answer = a; });
      if (abort) setTimeout(() => ctrl.abort(), 0);
    }, { request, abort });
    const answer = async () => (await page.waitForFunction(() => window.__answer)).jsonValue();
    const request = (id, data = {}) => ({ id, kind: "outcome_unknown", prompt: "ignored",
      data: { tool: "refund", args: { order: "42" }, callId: "c1", approval: "req_1", attempts: 1, ...data } });
    const dialog = page.getByRole("dialog");

    await ask(request("u1"));
    await dialog.getByLabel("Result, if it happened").fill("refunded");
    await dialog.getByLabel("Result, if it happened").press("Enter");
    assert.deepEqual(await answer(), { id: "u1", ok: true, data: { outcome: "happened", output: "refunded" } });

    await ask(request("u2"));
    await dialog.getByRole("button", { name: "It happened" }).click();
    assert.deepEqual(await answer(), { id: "u2", ok: true, data: { outcome: "happened", output: "" } });

    await ask(request("u3"));
    await dialog.getByRole("button", { name: "Run it again" }).click();
    assert.deepEqual(await answer(), { id: "u3", ok: true, data: { outcome: "rerun" } });

    await ask(request("u4"));
    await dialog.getByLabel("Reason, if it did not happen").fill("not in the ledger");
    await dialog.getByLabel("Reason, if it did not happen").press("Enter");
    assert.deepEqual(await answer(), { id: "u4", ok: false, reason: "not in the ledger" });

    await ask(request("u5"));
    await dialog.getByRole("button", { name: "Decide later" }).waitFor();
    await page.keyboard.press("Escape");
    assert.deepEqual(await answer(), { id: "u5", later: true });
    await dialog.waitFor({ state: "detached" });

    await ask(request("u6"));
    await dialog.getByRole("button", { name: "Decide later" }).click();
    assert.deepEqual(await answer(), { id: "u6", later: true });

    // Only the choices the request offers; text stays text; attempts shown.
    await ask(request("u7", { tool: '<img src=x onerror="window.__xss=1">', choices: ["happened", "failed"], attempts: 2 }));
    assert.deepEqual(await dialog.getByRole("button").allTextContents(), ["Decide later", "It did not happen", "It happened"]);
    assert.match(await dialog.locator(".tnx-question").textContent(), /^<img src=x onerror="window.__xss=1"> \{"order":"42"\} was running/);
    assert.equal(await dialog.locator("img").count(), 0);
    assert.match(await dialog.textContent(), /started 2 times without finishing/);
    await page.evaluate(() => window.__abort());
    assert.deepEqual(await answer(), { id: "u7", later: true }, "an aborted wait records nothing");
    await ask(request("u8"), { abort: true });
    assert.deepEqual(await answer(), { id: "u8", later: true });
    assert.equal(await page.evaluate(() => window.__xss), undefined);
    assert.deepEqual(problems, []);
  });
});
