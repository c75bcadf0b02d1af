// approval-queue.test.mjs — several requests at once (core asks for every
// suspended call of a turn together, issue 17): the approval dialog shows
// them one at a time and says how many wait behind the open one. Headless
// Debian chromium.
//
//   ./build.sh && cd tests && timeout 300 node --test approval-queue.test.mjs

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { startSite, withPage } from "./chromium.mjs";

const here = fileURLToPath(new URL(".", import.meta.url));
const WEB = join(process.env.TOOLNEXUS_DIST ?? join(here, "..", "dist"), "web");

let site;
before(async () => {
  assert.ok(existsSync(join(WEB, "approval-dialog.mjs")), `no build in ${WEB}: run ./build.sh first`);
  site = await startSite(WEB, { scratch: true });
});
after(async () => { await site?.close(); });

test("three requests at once: one dialog at a time, with the count of the rest", { timeout: 120_000 }, async () => {
  // The page's script is a file: the site's CSP allows no inline script.
  await writeFile(join(site.root, "queue.mjs"), `import { approvalDialog } from "./approval-dialog.mjs";
const ask = approvalDialog();
const req = (id) => ({ id, kind: "approval", prompt: "Run refund " + id + "?", data: { tool: "refund", args: { order: id } } });
window.answers = Promise.all(["1", "2", "3"].map((id) => ask(req(id))));
`);
  await writeFile(join(site.root, "queue.html"), `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Queue</title>
<script type="module" src="./queue.mjs"></script></head><body><main><h1>Queue</h1></main></body></html>`);
  await withPage(site.browser, async (page) => {
    await page.goto(site.server.url + "queue.html");
    const expectOpen = async (id, note) => {
      const dialog = page.locator("dialog[open]");
      await dialog.waitFor();
      assert.equal(await page.locator("dialog").count(), 1, "one dialog at a time");
      assert.match(await dialog.locator(".tnx-prompt").textContent(), new RegExp(`refund ${id}\\?`));
      const queue = dialog.locator(".tnx-queue");
      assert.equal((await queue.textContent()) ?? "", note);
      assert.equal(await queue.isVisible(), note !== "");
    };
    await expectOpen("1", "2 more requests waiting after this one");
    await page.locator("dialog[open] .tnx-approve").click();
    await expectOpen("2", "1 more request waiting after this one");
    await page.locator("dialog[open] .tnx-decline").click();
    await expectOpen("3", "");
    await page.locator("dialog[open] .tnx-approve").click();
    const answers = await page.evaluate(() => window.answers);
    assert.deepEqual(answers.map((a) => [a.id, a.ok]), [["1", true], ["2", false], ["3", true]]);
  });
});
