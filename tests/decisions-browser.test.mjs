// decisions-browser.test.mjs — "allow for this conversation" and the record
// in headless Debian chromium (issue 32): <toolnexus-chat> in demo mode and
// the demo page. Allowed with these arguments, the same call runs without
// the dialog and its line says by which decision; other arguments ask
// again; allowed with any arguments, they do not; revoked, the next call
// asks again; a new conversation asks again. The demo's Decisions view
// lists the record and verifies it.
//
//   ./build.sh && cd tests && timeout 300 node --test decisions-browser.test.mjs

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { startSite, withPage as freshPage } from "./chromium.mjs";

const here = fileURLToPath(new URL(".", import.meta.url));
const DIST = process.env.TOOLNEXUS_DIST ?? join(here, "..", "dist");
const WEB = join(DIST, "web");
const T = { timeout: 120_000 };

let site;
before(async () => {
  assert.ok(existsSync(join(WEB, "toolnexus.wasm")), `no build in ${WEB}: run ./build.sh first`);
  site = await startSite(WEB, { scratch: true });
});
after(async () => { await site?.close(); });

const withPage = (fn) => freshPage(site.browser, fn, { timeout: 30_000 });

async function elementPage(page) {
  const name = `decisions-${Math.random().toString(36).slice(2)}.html`;
  await writeFile(join(site.root, name), `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title>
<script type="module" src="./toolnexus-chat.mjs"></script></head><body><main><h1>Shop</h1>
<toolnexus-chat demo></toolnexus-chat></main></body></html>`);
  await page.goto(site.server.url + name);
  await page.waitForSelector("toolnexus-chat[ready]");
  return page.locator("toolnexus-chat");
}

// countDialogs counts every approval dialog the page opens, from the start.
async function countDialogs(page) {
  await page.evaluate(() => {
    window.__dialogs = 0;
    new MutationObserver((records) => {
      for (const r of records) for (const n of r.addedNodes) if (n.localName === "dialog") window.__dialogs++;
    }).observe(document.body, { childList: true, subtree: true });
  });
  return () => page.evaluate(() => window.__dialogs);
}

// send types text and sends it; idle waits until the run is over.
async function send(input, button, text) {
  await input.fill(text);
  await button.click();
}

const elementIdle = (page) => page.waitForFunction(() => {
  const el = document.querySelector("toolnexus-chat");
  return !el.hasAttribute("busy") && !document.querySelector("dialog[open]");
}, null, { timeout: 30_000 });

// lastCall is the [label, decision note] of the last tool call line.
const lastCall = (root) => root.locator(".entry.tool-call").last().evaluate((e) =>
  [e.querySelector(".who").textContent, e.querySelector(".decision")?.textContent ?? ""]);

// allow answers the open dialog with "Allow for this conversation".
async function allow(page, scope) {
  const dialog = page.getByRole("dialog");
  await dialog.waitFor();
  assert.equal(await dialog.locator("legend").textContent(), "Allow for this conversation");
  await dialog.getByRole("radio", { name: scope === "any" ? "with any arguments" : "with these exact arguments" }).check();
  await dialog.getByRole("button", { name: "Allow for this conversation" }).click();
}

test("element (demo): allow for this conversation — these arguments, any arguments, revoked, a new conversation", T, async () => {
  await withPage(async (page, problems) => {
    const el = await elementPage(page);
    const dialogs = await countDialogs(page);
    const input = el.getByRole("textbox", { name: "Message" });
    const sendButton = el.getByRole("button", { name: "Send" });
    const revoked = [];
    await page.exposeFunction("__revoked", (d) => revoked.push(d));
    await page.evaluate(() => document.addEventListener("toolnexus:revoked", (e) => window.__revoked(e.detail)));

    await send(input, sendButton, "refund order 42");
    await allow(page, "args");
    await elementIdle(page);
    let [label, note] = await lastCall(el);
    assert.equal(label, "Tool call · approved");
    assert.match(note, /^Allowed for this conversation: later calls of refund with these arguments run without asking$/);

    // The same call again: no dialog, and its line says by which decision.
    await send(input, sendButton, "refund order 42");
    await elementIdle(page);
    assert.equal(await dialogs(), 1, "the same call asked again");
    [label, note] = await lastCall(el);
    assert.equal(label, "Tool call · approved by your earlier decision");
    assert.match(note, /^Approved by your earlier “allow for this conversation” \(these arguments, decided at .+\)$/);
    assert.match(await el.locator(".entry.tool-result").last().textContent(), /refunded order 42/);

    // Other arguments ask again; allowed with any arguments, the next does not.
    await send(input, sendButton, "refund order 7");
    await allow(page, "any");
    await elementIdle(page);
    assert.equal(await dialogs(), 2);
    await send(input, sendButton, "refund order 8");
    await elementIdle(page);
    assert.equal(await dialogs(), 2, "any arguments: refund order 8 asked");
    [label] = await lastCall(el);
    assert.equal(label, "Tool call · approved by your earlier decision");

    // Revoke on that line: the next refund asks again.
    await el.locator(".entry.tool-call").last().getByRole("button", { name: "Revoke" }).click();
    await el.locator(".entry.tool-call .decision", { hasText: "is revoked" }).first().waitFor();
    assert.equal(revoked.length, 1);
    assert.equal(revoked[0].decision.decision, "revoked");
    await send(input, sendButton, "refund order 9");
    await page.getByRole("dialog").waitFor();
    assert.equal(await dialogs(), 3, "revoked: refund order 9 did not ask");
    await page.getByRole("dialog").getByRole("button", { name: "Decline" }).click();
    await elementIdle(page);

    // A new conversation: what was allowed before does not hold.
    await el.evaluate((e) => e.reset());
    await send(input, sendButton, "refund order 42");
    await page.getByRole("dialog").waitFor();
    assert.equal(await dialogs(), 4, "a new conversation did not ask");
    await page.getByRole("dialog").getByRole("button", { name: "Decline" }).click();
    await elementIdle(page);
    assert.deepEqual(problems, []);
  });
});

test("demo page: allow for this conversation, the line, revoke, a new conversation, and the Decisions view verifies", T, async () => {
  await withPage(async (page, problems) => {
    await page.goto(site.server.url + "index.html");
    await page.waitForFunction(() => document.documentElement.dataset.ready === "1");
    const dialogs = await countDialogs(page);
    const input = page.getByRole("textbox", { name: "Message" });
    const sendButton = page.getByRole("button", { name: "Send" });
    const idle = () => page.waitForFunction(() => !document.getElementById("send").disabled && !document.querySelector("dialog[open]"), null, { timeout: 30_000 });
    const transcript = page.locator("#transcript");

    await send(input, sendButton, "refund order 42");
    await allow(page, "any");
    await idle();
    await send(input, sendButton, "refund order 43");
    await idle();
    assert.equal(await dialogs(), 1, "allowed with any arguments, refund order 43 asked");
    let [label, note] = await lastCall(transcript);
    assert.equal(label, "Tool call · approved by your earlier decision");
    assert.match(note, /^Approved by your earlier “allow for this conversation” \(any arguments, decided at .+\)$/);

    // The Decisions view: both decisions, verified.
    const view = page.locator("#decisions");
    await view.locator("tbody tr").nth(1).waitFor();
    const rows = await view.locator("tbody tr").evaluateAll((trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent.trim())));
    assert.equal(rows.length, 2);
    assert.deepEqual(rows.map((r) => [r[0], r[2]]), [["1", "refund"], ["2", "refund"]]);
    assert.match(rows[0][3], /^approved, and allowed for this conversation \(any arguments\)/);
    assert.match(rows[0][4], /in page · via tab/);
    assert.match(rows[1][3], /^approved by an earlier “allow for this conversation”/);
    assert.match(rows[1][4], /via grant/);
    await view.getByRole("button", { name: "Verify" }).click();
    await view.locator(".tnx-decisions-status[data-kind=ok]").waitFor();
    assert.match(await view.locator(".tnx-decisions-status").textContent(), /^Verified: 2 decisions/);

    // Revoke from the line; the next refund asks; the view shows the revocation.
    await transcript.locator(".entry.tool-call").first().getByRole("button", { name: "Revoke" }).click();
    await transcript.locator(".entry.tool-call .decision", { hasText: "is revoked" }).first().waitFor();
    await send(input, sendButton, "refund order 44");
    await page.getByRole("dialog").waitFor();
    assert.equal(await dialogs(), 2);
    await page.getByRole("dialog").getByRole("button", { name: "Approve" }).click();
    await idle();
    await view.locator("tbody tr").nth(3).waitFor();
    assert.deepEqual(await view.locator("tbody tr").evaluateAll((trs) => trs.map((tr) => tr.dataset.decision)), ["approved", "approved", "revoked", "approved"]);
    await view.getByRole("button", { name: "Verify" }).click();
    await view.locator(".tnx-decisions-status[data-kind=ok]").waitFor();

    // A new conversation asks again.
    await send(input, sendButton, "refund order 42");
    await allow(page, "args");
    await idle();
    await page.getByRole("button", { name: "New conversation" }).click();
    await send(input, sendButton, "refund order 42");
    await page.getByRole("dialog").waitFor();
    assert.equal(await dialogs(), 4, "a new conversation did not ask");
    await page.getByRole("dialog").getByRole("button", { name: "Decline" }).click();
    await idle();
    assert.deepEqual(problems, []);
  });
});
