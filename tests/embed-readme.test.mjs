// embed-readme.test.mjs — the embedding instructions work as written. For the
// README and web/examples/README.md: the shell block after
// `<!-- embed-test: sh -->` runs verbatim from a folder laid out like the
// repository root after ./build.sh (its dist/ is the real build), the HTML
// block after `<!-- embed-test: html -->` becomes site/index.html verbatim,
// the site folder is served over http, and Chromium completes the refund
// scenario with the element's demo model.
//
//   ./build.sh build && cd tests && timeout 300 node --test embed-readme.test.mjs

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { chromium } from "playwright-core";
import { LAUNCH, withPage } from "./chromium.mjs";
import { serve } from "../scripts/serve.mjs";

const run = promisify(execFile);
const here = fileURLToPath(new URL(".", import.meta.url));
const ROOT = resolve(here, "..");
const DIST = resolve(process.env.TOOLNEXUS_DIST ?? join(ROOT, "dist"));
const T = { timeout: 120_000 };

// block returns the fenced block that follows `<!-- embed-test: kind -->`.
function block(markdown, kind, file) {
  const m = markdown.match(new RegExp(`<!-- embed-test: ${kind} -->\\n\`\`\`[a-z]*\\n([\\s\\S]*?)\\n\`\`\``));
  assert.ok(m, `${file} has no embed-test ${kind} block`);
  return m[1];
}

let browser;
before(async () => {
  assert.ok(existsSync(join(DIST, "web", "toolnexus-chat.mjs")), `no build in ${DIST}/web: run ./build.sh first`);
  browser = await chromium.launch(LAUNCH);
});
after(async () => { await browser?.close(); });

for (const file of ["README.md", "web/examples/README.md"]) {
  test(`${file}: the embedding blocks, run as written, give a working element`, T, async () => {
    const markdown = readFileSync(join(ROOT, file), "utf8");
    const sh = block(markdown, "sh", file);
    const html = block(markdown, "html", file);
    // A stand-in for the repository root: dist/ is the real build.
    const repo = await mkdtemp(join(tmpdir(), "toolnexus-embed-readme-"));
    let server;
    try {
      await symlink(DIST, join(repo, "dist"));
      await run("bash", ["-euo", "pipefail", "-c", sh], { cwd: repo, timeout: 60_000 });
      const site = join(repo, "site");
      await writeFile(join(site, "index.html"), html + "\n");
      server = await serve({ root: site, port: 0 });
      await withPage(browser, async (page, problems) => {
        const missing = [];
        page.on("response", (r) => { if (r.status() >= 400) missing.push(`${r.status()} ${r.url()}`); });
        await page.goto(server.url);
        await page.waitForSelector("toolnexus-chat[ready]");
        // Issue 26: a page in standards mode that declares its icon, so the
        // browser asks for no favicon.ico (headless Chromium never fetches
        // one, so the declaration is what can be checked).
        assert.equal(await page.evaluate(() => document.compatMode), "CSS1Compat", "no doctype: quirks mode");
        assert.ok(await page.evaluate(() => !!document.querySelector('link[rel~="icon"]')), "no icon declared");
        const el = page.locator("toolnexus-chat");
        await el.getByRole("textbox", { name: "Message" }).fill("refund order 42");
        await el.getByRole("button", { name: "Send" }).click();
        const dialog = page.getByRole("dialog");
        await dialog.waitFor();
        assert.match(await dialog.locator("pre").textContent(), /"order": "42"/);
        await dialog.getByRole("button", { name: "Approve" }).click();
        await page.waitForFunction(() => !document.querySelector("toolnexus-chat").hasAttribute("busy") &&
          /Done: refunded order 42/.test(document.querySelector("toolnexus-chat").shadowRoot.querySelector("[role=log]").textContent));
        assert.deepEqual(missing, [], "every file the snippet loads is where it looks");
        assert.deepEqual(problems, []);
      });
    } finally {
      await server?.close();
      await rm(repo, { recursive: true, force: true });
    }
  });
}

// The example pages (web/examples) too: standards mode, an icon declared.
test("web/examples pages: standards mode, and an icon declared", T, async () => {
  const dir = join(DIST, "web", "examples");
  const server = await serve({ root: join(DIST, "web"), port: 0 });
  try {
    await withPage(browser, async (page) => {
      for (const name of readdirSync(dir).filter((f) => f.endsWith(".html"))) {
        await page.goto(`${server.url}examples/${name}`);
        const got = await page.evaluate(() => [document.compatMode, !!document.querySelector('link[rel~="icon"]')]);
        assert.deepEqual(got, ["CSS1Compat", true], name);
      }
    });
  } finally {
    await server.close();
  }
});
