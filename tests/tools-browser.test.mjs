// tools-browser.test.mjs — the built-in tools on the demo page, end to end in
// headless Debian chromium (playwright-core) with the offline demo model:
// "write a note" asks two questions (the built-in question tool) in the
// dialog, then writes the note (the built-in write tool) after an approval;
// the Files panel shows it, and it is still there after a reload when
// "Keep the files" is on.
//
//   ./build.sh build && cd tests && timeout 300 node --test tools-browser.test.mjs

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { startSite, withPage as openPage } from "./chromium.mjs";
import { idle, openDemoAt, send } from "./demo-page.mjs";

const here = fileURLToPath(new URL(".", import.meta.url));
const WEB = process.env.TOOLNEXUS_WEB ?? join(process.env.TOOLNEXUS_DIST ?? join(here, "..", "dist"), "web");
const T = { timeout: 90_000 };

let site;
let root;
let server;
let browser;

before(async () => {
  assert.ok(existsSync(join(WEB, "toolnexus-tools.wasm")), `no tools build in ${WEB}: run ./build.sh first`);
  site = await startSite(WEB, { scratch: true });
  ({ root, server, browser } = site);
});

after(async () => {
  await site?.close();
});

// withPage: a fresh context per test, always closed (chromium.mjs).
const withPage = (fn) => openPage(browser, fn);

const openDemo = (page) => openDemoAt(page, server.url);

const panelFiles = (page) => page.$$eval("#files li[data-path]", (lis) =>
  lis.map((li) => [li.dataset.path, li.querySelector("pre").textContent]));

// writeNote plays the scenario: the question dialog, then the write approval.
async function writeNote(page, file, text) {
  await send(page, "write a note");
  const ask = page.locator("dialog.tnx-approval[open]");
  await ask.waitFor();
  assert.equal(await ask.locator("h2").textContent(), "The agent has a question");
  // The questions and their options are rendered as a form.
  assert.deepEqual(await ask.locator("legend").allTextContents(),
    ["Which file should the note go to?", "What should the note say?"]);
  assert.deepEqual(await ask.getByRole("radio").evaluateAll((els) => els.map((e) => e.value)),
    ["todo.md", "ideas.md", "journal.md"]);
  await ask.getByRole("radio", { name: file }).check();
  await ask.getByRole("textbox", { name: "Answer to: What should the note say?" }).fill(text);
  await ask.getByRole("button", { name: "Answer" }).click();

  const approval = page.locator("dialog.tnx-approval[open]");
  await approval.locator(".tnx-tool", { hasText: "write" }).waitFor();
  assert.equal(await approval.locator(".tnx-source").textContent(), "the agent's built-in tools, in this page");
  assert.deepEqual(JSON.parse(await approval.locator(".tnx-args").textContent()),
    { path: `notes/${file}`, content: `${text}\n` });
  await approval.getByRole("button", { name: "Approve" }).click();
  await idle(page);
}

test("demo page: question and write, answered and approved in the dialog; the Files panel shows the file", T, async () => {
  await withPage(async (page, problems) => {
    await openDemo(page);
    assert.deepEqual(await panelFiles(page), []);
    await writeNote(page, "ideas.md", "try the tools build");
    const log = await page.locator("#transcript").textContent();
    assert.match(log, /Which file should the note go to\?\n→ ideas\.md/);
    assert.match(log, /Saved notes\/ideas\.md\. It is in the Files panel\./);
    await page.waitForFunction(() => document.querySelector("#files li[data-path='notes/ideas.md']"));
    assert.deepEqual(await panelFiles(page), [["notes/ideas.md", "try the tools build\n"]]);

    // Persistence is on: the file system survives a reload.
    await page.evaluate(() => new Promise((r) => setTimeout(r, 200))); // let IndexedDB commit
    await page.reload();
    await page.waitForSelector("html[data-ready='1']");
    await page.waitForFunction(() => document.querySelector("#files li[data-path='notes/ideas.md']"));
    assert.deepEqual(await panelFiles(page), [["notes/ideas.md", "try the tools build\n"]]);
    assert.deepEqual(problems, []);
  });
});

test("demo page: a declined write leaves no file; with Keep the files off a reload starts empty", T, async () => {
  await withPage(async (page, problems) => {
    await openDemo(page);
    await send(page, "write a note");
    const ask = page.locator("dialog.tnx-approval[open]");
    await ask.getByRole("button", { name: "Answer" }).click(); // the first option, no text
    const approval = page.locator("dialog.tnx-approval[open]");
    await approval.locator(".tnx-tool", { hasText: "write" }).waitFor();
    await approval.getByRole("button", { name: "Decline" }).click();
    await idle(page);
    assert.match(await page.locator("#transcript").textContent(), /I did not run write/);
    assert.deepEqual(await panelFiles(page), []);

    await page.getByRole("checkbox", { name: /Keep the files/ }).uncheck();
    await writeNote(page, "todo.md", "only in memory");
    await page.waitForFunction(() => document.querySelector("#files li[data-path='notes/todo.md']"));
    await page.reload();
    await page.waitForSelector("html[data-ready='1']");
    assert.equal(await page.getByRole("checkbox", { name: /Keep the files/ }).isChecked(), false);
    assert.deepEqual(await panelFiles(page), []);
    assert.deepEqual(problems, []);
  });
});
