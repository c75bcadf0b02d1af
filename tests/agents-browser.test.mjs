// agents-browser.test.mjs — the demo's agent team in headless Debian chromium
// (playwright-core): "review order 42" makes support hand the refund to its
// billing sub-agent; the approval dialog names the asking agent's path; a
// decline travels back up; a reload while the dialog is open restores the
// halted tree from IndexedDB and brings the same dialog back.
//
//   ./build.sh && cd tests && timeout 300 node --test agents-browser.test.mjs

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { startSite, withPage as openPage } from "./chromium.mjs";
import { idle, openDemoAt, send } from "./demo-page.mjs";

const here = fileURLToPath(new URL(".", import.meta.url));
const WEB = process.env.TOOLNEXUS_WEB ?? join(process.env.TOOLNEXUS_DIST ?? join(here, "..", "dist"), "web");
const AXE = createRequire(import.meta.url).resolve("axe-core/axe.min.js");
const T = { timeout: 90_000 };

let site;
before(async () => {
  assert.ok(existsSync(join(WEB, "toolnexus-tools.wasm")), `no build in ${WEB}: run ./build.sh first`);
  site = await startSite(WEB);
});
after(async () => { await site?.close(); });

const withPage = (fn) => openPage(site.browser, fn, { timeout: 30_000 });

const openDemo = (page) => openDemoAt(page, site.server.url);

// checkDialog asserts what the open dialog shows: the path above the tool,
// and the tool's exact arguments.
async function checkDialog(dialog, order) {
  assert.equal(await dialog.locator(".tnx-path").textContent(), "support › billing");
  assert.equal(await dialog.locator(".tnx-tool").textContent(), "refund");
  assert.deepEqual(JSON.parse(await dialog.locator(".tnx-args").textContent()), { order });
  // The path comes before the tool in the dialog's reading order.
  const terms = await dialog.locator("dt").allTextContents();
  assert.deepEqual(terms.slice(0, 2), ["Agent", "Tool"]);
}

test("demo team: the dialog shows support › billing and refund's arguments; a decline reaches the person through support", T, async () => {
  await withPage(async (page, problems) => {
    await openDemo(page);
    await send(page, "review order 42");
    const dialog = page.getByRole("dialog");
    await dialog.waitFor();
    await checkDialog(dialog, "42");
    // The dialog with a path passes the same accessibility audit as any.
    await page.addScriptTag({ path: AXE });
    const violations = await page.evaluate(async () => (await window.axe.run(document.querySelector("dialog[open]"),
      { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] } })).violations.map((v) => v.id));
    assert.deepEqual(violations, []);
    // The halted tree is already saved while the dialog is open.
    const rec = await page.evaluate(async () => (await import("/store.mjs")).browserStore().get("demo-team"));
    assert.deepEqual(rec?.pending?.data?.path, ["support", "billing"]);
    await page.getByRole("textbox", { name: "Reason" }).fill("order 42 was already refunded");
    await dialog.getByRole("button", { name: "Decline" }).click();
    await idle(page);
    const text = await page.locator("#transcript").textContent();
    assert.match(text, /support handed a task to billing/);
    assert.match(text, /Tool call · support › billing · declined/);
    assert.match(text, /Billing could not refund order 42\. It reported: I did not refund order 42: "order 42 was already refunded"\./);
    assert.doesNotMatch(text, /Tool resultrefunded order 42/, "refund never ran");
    const after = await page.evaluate(async () => (await import("/store.mjs")).browserStore().get("demo-team"));
    assert.equal(after, null, "a finished team run leaves no saved tree");
    assert.deepEqual(problems, []);
  });
});

test("demo team: reload while the dialog is open → the same dialog comes back → approve → support reports the refund", T, async () => {
  await withPage(async (page, problems) => {
    await openDemo(page);
    await send(page, "review order 77");
    const dialog = page.getByRole("dialog");
    await dialog.waitFor();
    await checkDialog(dialog, "77");
    const before = await page.evaluate(async () => (await import("/store.mjs")).browserStore().get("demo-team"));
    await page.reload();
    await page.waitForSelector("html[data-ready='1']");
    await dialog.waitFor();
    await checkDialog(dialog, "77");
    const again = await page.evaluate(async () => (await import("/store.mjs")).browserStore().get("demo-team"));
    assert.equal(again.pending.id, before.pending.id, "the same request");
    // Issue 26: the status names what is open, as for a single agent.
    assert.equal(await page.locator("#busy").textContent(), "Waiting for your approval…");
    // The transcript before the reload is back too.
    assert.match(await page.locator("#transcript").textContent(), /review order 77.*support handed a task to billing/s);
    await dialog.getByRole("button", { name: "Approve" }).click();
    await idle(page);
    const text = await page.locator("#transcript").textContent();
    assert.match(text, /Tool resultrefunded order 77/);
    assert.match(text, /Billing has refunded order 77\. It reported: Done: refunded order 77\./);
    // Issue 26: the answer lands on the call's line, restored after the reload.
    const labels = () => page.locator("#transcript .entry.tool-call .who").allTextContents();
    assert.deepEqual(await labels(), ["Tool call · support › billing · approved"]);
    assert.equal(await page.evaluate(async () => (await import("/store.mjs")).browserStore().get("demo-team")), null);
    // A second reload brings no dialog back: the answer was used once.
    await page.reload();
    await page.waitForSelector("html[data-ready='1']");
    await page.waitForTimeout(300);
    assert.equal(await page.locator("dialog[open]").count(), 0);
    assert.deepEqual(await labels(), ["Tool call · support › billing · approved"], "saved with the answer");
    assert.deepEqual(problems, []);
  });
});

test("dialog: a hostile agent path is shown as text, with invisible characters escaped", T, async () => {
  await withPage(async (page, problems) => {
    await openDemo(page);
    const shown = page.evaluate(async () => {
      const { approvalDialog } = await import("/approval-dialog.mjs");
      return approvalDialog()({ id: "r1", kind: "approval",
        data: { tool: "refund", args: { order: "1" }, path: ["<img src=x onerror=alert(1)>", "bill\u202Eing"] } });
    });
    const dialog = page.getByRole("dialog");
    await dialog.waitFor();
    assert.equal(await dialog.locator(".tnx-path").textContent(), "<img src=x onerror=alert(1)> › bill\\u202eing");
    assert.equal(await dialog.locator("img").count(), 0);
    await dialog.getByRole("button", { name: "Decline" }).click();
    assert.equal((await shown).ok, false);
    // A path that is not a list of names is no path.
    const odd = page.evaluate(async () => {
      const { approvalDialog } = await import("/approval-dialog.mjs");
      return approvalDialog()({ id: "r2", kind: "approval", data: { tool: "refund", args: {}, path: [{ x: 1 }] } });
    });
    await dialog.waitFor();
    assert.equal(await dialog.locator(".tnx-path").count(), 0);
    await dialog.getByRole("button", { name: "Decline" }).click();
    await odd;
    assert.deepEqual(problems, []);
  });
});
