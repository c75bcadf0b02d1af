// approval-edit.test.mjs — editing what one approves, one vocabulary for
// declines, and an accessibility audit, in headless Debian chromium: the
// demo page, <toolnexus-chat> in demo mode, and <toolnexus-chat> in remote
// mode against the Worker on workerd (Miniflare).
//
//   ./build.sh build && ./build.sh worker && cd tests && timeout 300 node --test approval-edit.test.mjs
//
// Screenshots go to $SHOTS (default tests/artifacts/shots). The audit runs
// axe-core (tests/package.json pins it) for WCAG 2.x levels A and AA.

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { startSite, withPage as freshPage } from "./chromium.mjs";
import { startWorker } from "./worker-harness.mjs";
import { startWorkerMock } from "./worker-mock.mjs";

const here = fileURLToPath(new URL(".", import.meta.url));
const DIST = process.env.TOOLNEXUS_DIST ?? join(here, "..", "dist");
const WEB = join(DIST, "web");
const SHOTS = process.env.SHOTS ?? join(here, "artifacts", "shots");
const AXE = createRequire(import.meta.url).resolve("axe-core/axe.min.js");
const T = { timeout: 120_000 };

let site;
before(async () => {
  assert.ok(existsSync(join(WEB, "toolnexus.wasm")), `no build in ${WEB}: run ./build.sh first`);
  site = await startSite(WEB, { scratch: true });
  await mkdir(SHOTS, { recursive: true });
});
after(async () => { await site?.close(); });

const withPage = (fn, contextOptions) => freshPage(site.browser, fn, { contextOptions, timeout: 20_000 });

async function elementPage(page, attrs) {
  const name = `edit-${Math.random().toString(36).slice(2)}.html`;
  await writeFile(join(site.root, name), `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title>
<script type="module" src="./toolnexus-chat.mjs"></script></head><body><main><h1>Shop</h1>
<toolnexus-chat ${attrs}></toolnexus-chat></main></body></html>`);
  await page.goto(site.server.url + name);
  await page.waitForSelector("toolnexus-chat[ready]");
  return page.locator("toolnexus-chat");
}

async function sendTo(el, text) {
  await el.getByRole("textbox", { name: "Message" }).fill(text);
  await el.getByRole("button", { name: "Send" }).click();
}

const elementIdle = (page) => page.waitForFunction(() => {
  const el = document.querySelector("toolnexus-chat");
  return !el.hasAttribute("busy") && !document.querySelector("dialog[open]");
}, null, { timeout: 30_000 });

// callLines: [label, text] of every tool call line in the element's transcript.
const callLines = (el) => el.locator(".entry.tool-call").evaluateAll((els) =>
  els.map((e) => [e.querySelector(".who").textContent, e.querySelector(".text").textContent]));

// editArgs opens Edit, types text into the Arguments textbox and approves.
async function editAndApprove(dialog, text) {
  const box = dialog.getByRole("textbox", { name: "Arguments" });
  if (!(await box.count())) await dialog.getByRole("button", { name: "Edit" }).click();
  await box.fill(text);
  await dialog.getByRole("button", { name: /^Approve/ }).click();
}

// audit runs axe-core on the page (shadow roots and the open dialog
// included) for WCAG 2.x A and AA and returns the violations.
async function audit(page, include) {
  if (!(await page.evaluate(() => !!window.axe))) await page.addScriptTag({ path: AXE });
  return page.evaluate(async (include) => {
    const res = await window.axe.run(include ? { include } : document,
      { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"] } });
    return res.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  }, include);
}

test("element (demo): Edit, bad JSON and a schema mismatch keep the dialog open with an alert; a valid edit runs and is logged", T, async (t) => {
  await withPage(async (page, problems) => {
    const el = await elementPage(page, "demo");
    const calls = [];
    await page.exposeFunction("__call", (d) => calls.push(d));
    await page.evaluate(() => document.addEventListener("toolnexus:tool-call", (e) => window.__call(e.detail)));
    await sendTo(el, "refund order 42");
    const dialog = page.getByRole("dialog");
    await dialog.waitFor();
    assert.equal(await dialog.locator(".tnx-source").textContent(), "this page");
    await dialog.getByRole("button", { name: "Edit" }).click();
    const box = dialog.getByRole("textbox", { name: "Arguments" });
    assert.equal(await box.inputValue(), '{\n  "order": "42"\n}', "pretty JSON");
    assert.equal(await page.evaluate(() => document.activeElement?.localName), "textarea", "focus moves to the textbox");
    assert.match(await box.evaluate((b) => getComputedStyle(b).fontFamily), /monospace/);
    await page.screenshot({ path: join(SHOTS, "dialog-edit.png") });
    t.diagnostic(`screenshot ${join(SHOTS, "dialog-edit.png")}`);

    await editAndApprove(dialog, '{"order": 43');
    const alert = dialog.getByRole("alert");
    assert.match(await alert.textContent(), /^The arguments are not valid JSON/);
    assert.ok(await dialog.isVisible(), "the dialog stays open");
    assert.equal(await box.getAttribute("aria-invalid"), "true");
    await editAndApprove(dialog, '{"order": 43}');
    assert.equal(await alert.textContent(), 'The arguments do not fit the tool: "order" must be string.');
    await page.screenshot({ path: join(SHOTS, "dialog-edit-error.png") });
    t.diagnostic(`screenshot ${join(SHOTS, "dialog-edit-error.png")}`);
    for (const scheme of ["light", "dark"]) {
      await page.emulateMedia({ colorScheme: scheme });
      const violations = await audit(page);
      t.diagnostic(`axe on the dialog in edit mode with an error (${scheme}): ${violations.length} violations`);
      assert.deepEqual(violations, [], scheme);
    }
    await page.emulateMedia({ colorScheme: "light" });

    // Ctrl+Enter in the textbox approves.
    await box.fill('{"order": "43"}');
    await box.press("Control+Enter");
    await elementIdle(page);
    const text = await el.getByRole("log").textContent();
    assert.match(text, /Done: refunded order 43\./);
    // Issue 26: the call's one line says how it was answered and shows what ran.
    assert.deepEqual(await callLines(el), [["Tool call · approved with edited arguments", 'refund {"order":"43"}\n(the model asked for {"order":"42"})']]);
    assert.deepEqual(calls.map((c) => [c.name, c.args, c.edited, c.output]), [["refund", { order: "43" }, true, "refunded order 43"]]);
    assert.deepEqual(problems, []);
  });
});

test("element (demo): a decline is 'Declined' with the reason, neutral, and the status names what is open", T, async (t) => {
  await withPage(async (page, problems) => {
    const el = await elementPage(page, "demo");
    await sendTo(el, "refund order 42");
    const dialog = page.getByRole("dialog");
    await dialog.waitFor();
    assert.equal(await el.getByRole("status").textContent(), "Waiting for your approval…");
    await dialog.getByRole("textbox", { name: "Reason" }).fill("over the refund limit");
    await dialog.getByRole("button", { name: "Decline" }).click();
    await elementIdle(page);
    assert.deepEqual(await callLines(el), [["Tool call · declined", 'refund {"order":"42"}']]);
    const declined = el.locator(".entry.declined");
    assert.equal(await declined.locator(".who").textContent(), "Declined");
    assert.equal(await declined.locator(".text").textContent(), "over the refund limit");
    assert.equal(await el.locator(".entry.error").count(), 0);
    assert.doesNotMatch(await el.getByRole("log").textContent(), /Tool error|was not run/);
    const danger = await el.evaluate((e) => getComputedStyle(e.shadowRoot.querySelector(".entry.declined .who")).color);
    const muted = await el.evaluate((e) => getComputedStyle(e.shadowRoot.querySelector(".entry.user .who")).color);
    assert.equal(danger, muted, "the decline's label has the neutral color of any other label");
    await el.screenshot({ path: join(SHOTS, "element-declined.png") });
    t.diagnostic(`screenshot ${join(SHOTS, "element-declined.png")}`);
    for (const scheme of ["light", "dark"]) {
      await page.emulateMedia({ colorScheme: scheme });
      const violations = await audit(page);
      t.diagnostic(`axe on the element (${scheme}): ${violations.length} violations`);
      assert.deepEqual(violations, [], scheme);
    }
    assert.deepEqual(problems, []);
  });
});

test("demo page: answered calls show their outcome; a decline reads 'Declined'; a question's status says so; an edit runs", T, async (t) => {
  await withPage(async (page, problems) => {
    await page.goto(site.server.url);
    await page.waitForSelector("html[data-ready='1']");
    const send = async (text) => {
      await page.getByRole("textbox", { name: "Message" }).fill(text);
      await page.getByRole("button", { name: "Send" }).click();
    };
    const idle = () => page.waitForFunction(() => !document.getElementById("send").disabled && !document.querySelector("dialog[open]"), null, { timeout: 30_000 });
    const dialog = page.getByRole("dialog");

    await send("refund order 42");
    await dialog.waitFor();
    assert.equal(await page.locator("#busy").textContent(), "Waiting for your approval…");
    await dialog.getByRole("textbox", { name: "Reason" }).fill("over the refund limit");
    await dialog.getByRole("button", { name: "Decline" }).click();
    await idle();
    const log = page.getByRole("log");
    const entries = await page.locator("#transcript .entry .who").allTextContents();
    assert.ok(entries.includes("Tool call · declined"), entries.join(" | "));
    assert.ok(!entries.some((w) => /needs approval|waiting/i.test(w)), entries.join(" | "));
    assert.equal(await page.locator("#transcript .entry.declined").textContent(), "Declinedover the refund limit");
    assert.equal(await page.locator("#transcript .entry.is-error").count(), 0);
    await page.locator("#transcript").screenshot({ path: join(SHOTS, "demo-declined.png") });
    t.diagnostic(`screenshot ${join(SHOTS, "demo-declined.png")}`);

    await send("refund order 7");
    await dialog.waitFor();
    await editAndApprove(dialog, '{"order": "8"}');
    await idle();
    assert.match(await log.textContent(), /Done: refunded order 8\./);
    // Issue 26: one line for the call, showing what ran with the model's arguments beside it.
    const calls = await page.locator("#transcript .entry.tool-call").evaluateAll((els) =>
      els.map((e) => [e.querySelector(".who").textContent, e.querySelector("code").textContent]));
    assert.deepEqual(calls.slice(1), [["Tool call · approved with edited arguments", 'refund {"order":"8"}\n(the model asked for {"order":"7"})']]);

    await send("write a note");
    await dialog.waitFor();
    assert.equal(await page.locator("#busy").textContent(), "Waiting for your answer…");
    await page.keyboard.press("Escape");
    await idle();
    for (const scheme of ["light", "dark"]) {
      await page.emulateMedia({ colorScheme: scheme });
      const violations = await audit(page);
      t.diagnostic(`axe on the demo page (${scheme}): ${violations.length} violations`);
      assert.deepEqual(violations, [], scheme);
    }
    assert.deepEqual(problems, []);
  });
});

// Issue 26: Edit can be left without approving: "Cancel edit" or Escape
// brings back the model's arguments; only a second Escape declines.
test("dialog: Cancel edit and Escape leave edit mode with the arguments unchanged; Escape again declines", T, async () => {
  await withPage(async (page, problems) => {
    await page.goto(site.server.url);
    await page.waitForSelector("html[data-ready='1']");
    await page.getByRole("textbox", { name: "Message" }).fill("refund order 5");
    await page.getByRole("button", { name: "Send" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.waitFor();
    const box = dialog.getByRole("textbox", { name: "Arguments" });
    const edit = dialog.getByRole("button", { name: "Edit" });
    await edit.click();
    await box.fill('{"order": "6"}');
    await dialog.getByRole("button", { name: "Cancel edit" }).click();
    assert.equal(await box.count(), 0, "the textbox is gone");
    assert.deepEqual(JSON.parse(await dialog.locator("pre.tnx-args").textContent()), { order: "5" });
    assert.equal(await dialog.getByRole("button", { name: /^Approve/ }).textContent(), "Approve");
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), "Edit", "focus on Edit");
    await edit.click();
    await box.fill('{"order": "6"}');
    await page.keyboard.press("Escape");
    assert.ok(await dialog.isVisible(), "Escape in edit mode keeps the dialog open");
    assert.equal(await box.count(), 0);
    assert.deepEqual(JSON.parse(await dialog.locator("pre.tnx-args").textContent()), { order: "5" });
    await page.keyboard.press("Escape");
    await page.waitForFunction(() => !document.getElementById("send").disabled && !document.querySelector("dialog[open]"), null, { timeout: 30_000 });
    const text = await page.getByRole("log").textContent();
    assert.match(text, /Tool call · declined/);
    assert.doesNotMatch(text, /refunded order/);
    assert.deepEqual(problems, []);
  });
});

test("element (remote, Worker on workerd): an edit is checked against the Worker tool's schema and runs there", T, async (t) => {
  const mock = await startWorkerMock();
  let worker;
  try {
    worker = await startWorker({
      LLM_BASE_URL: `${mock.url}/v1`, LLM_MODEL: "mock-model", LLM_API_KEY: "sk-edit-test-key",
      STATE_SECRET: "edit-state-secret-0123456789abcdef", ALLOWED_ORIGINS: site.server.url.replace(/\/$/, ""),
    });
    await withPage(async (page, problems) => {
      const el = await elementPage(page, `endpoint="${worker.url}"`);
      await sendTo(el, "refund order 42");
      const dialog = page.getByRole("dialog");
      await dialog.waitFor();
      assert.equal(await dialog.locator(".tnx-source").textContent(), `the agent at ${new URL(worker.url).host}`);
      await editAndApprove(dialog, '{"order": "43"}');
      assert.equal(await dialog.getByRole("alert").textContent(), 'The arguments do not fit the tool: "order" must be integer.');
      await editAndApprove(dialog, '{"order": 43, "reason": "damaged"}');
      await elementIdle(page);
      const text = await el.getByRole("log").textContent();
      assert.match(text, /done: refunded order 43/);
      assert.deepEqual(await callLines(el), [["Tool call · approved with edited arguments", 'refund {"order":43,"reason":"damaged"}\n(the model asked for {"order":42})']]);
      const violations = await audit(page);
      t.diagnostic(`axe on the element in remote mode: ${violations.length} violations`);
      assert.deepEqual(violations, []);
      assert.deepEqual(problems, []);
    });
  } finally {
    await worker?.dispose().catch(() => {});
    await mock.close();
  }
});

test("the dialog names where a tool runs in words: this page, the MCP server, the built-in tools, the Worker", T, async () => {
  await withPage(async (page, problems) => {
    await page.goto(site.server.url + "examples/index.html");
    const cases = [
      [{ source: "js" }, {}, "this page"],
      [{ source: "http" }, {}, "this page, as a web request"],
      [{ source: "mcp", server: "docs" }, {}, 'the MCP server "docs"'],
      [{ source: "builtin" }, {}, "the agent's built-in tools, in this page"],
      [{ source: "native" }, { agent: "the agent at agent.example.workers.dev" }, "the agent at agent.example.workers.dev"],
    ];
    for (const [data, options, want] of cases) {
      const answer = page.evaluate(async ({ data, options }) => {
        const { approvalDialog } = await import("/approval-dialog.mjs");
        return approvalDialog(options)({ id: "r1", kind: "approval", data: { tool: "t", args: { a: 1 }, ...data } });
      }, { data, options });
      const dialog = page.getByRole("dialog");
      await dialog.waitFor();
      assert.equal(await dialog.locator(".tnx-source").textContent(), want);
      await page.keyboard.press("Escape");
      assert.deepEqual(await answer, { id: "r1", ok: false, reason: "cancelled" });
    }
    assert.deepEqual(problems, []);
  });
});
