// chromium.mjs — what every Chromium test shares: the launch options for
// Debian's chromium (never a downloaded browser) and a fresh, always-closed
// context per test that records what went wrong on the page.

import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { serve } from "../scripts/serve.mjs";

/** playwright-core launch options; CHROMIUM overrides the binary. */
export const LAUNCH = {
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  headless: true,
  // The machine has no network but the package registries: keep Chromium
  // from trying to reach Google's services at start.
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
};

/**
 * withPage runs fn(page, problems) in a fresh context (its own storage),
 * always closed afterwards. problems collects console errors, page errors
 * and JS dialogs (which are dismissed), so a test can assert there were none.
 * @param {import("playwright-core").Browser} browser
 * @param {(page: import("playwright-core").Page, problems: string[]) => Promise<any>} fn
 * @param {{timeout?: number, contextOptions?: object, init?: [Function, any?]}} [options]
 *   init is an addInitScript(fn, arg) pair run in every page before its own scripts.
 */
export async function withPage(browser, fn, { timeout = 20_000, contextOptions = {}, init } = {}) {
  const context = await browser.newContext(contextOptions);
  try {
    context.setDefaultTimeout(timeout);
    if (init) await context.addInitScript(...init);
    const page = await context.newPage();
    await page.route("**/favicon.ico", (route) => route.fulfill({ status: 204 })); // pages declare no icon
    const problems = [];
    page.on("console", (m) => { if (m.type() === "error") problems.push(`console: ${m.text().slice(0, 300)}`); });
    page.on("pageerror", (e) => problems.push(`pageerror: ${e.message.slice(0, 300)}`));
    page.on("dialog", (d) => { problems.push(`js dialog: ${d.message()}`); d.dismiss().catch(() => {}); });
    return await fn(page, problems);
  } finally {
    await context.close();
  }
}

/**
 * startSite serves the built web folder on 127.0.0.1 and launches Chromium.
 * With scratch: true the folder is first copied to a temporary one that the
 * test may write pages into. close() closes the browser and the server and
 * removes the copy.
 * @returns {Promise<{root: string, server: {url: string, close(): Promise<void>}, browser: import("playwright-core").Browser, close(): Promise<void>}>}
 */
export async function startSite(web, { scratch = false } = {}) {
  let root = web;
  if (scratch) {
    root = await mkdtemp(join(tmpdir(), "toolnexus-site-"));
    await cp(web, root, { recursive: true });
  }
  const server = await serve({ root, port: 0 });
  let browser;
  try {
    browser = await chromium.launch(LAUNCH);
  } catch (err) {
    await server.close();
    throw err;
  }
  return {
    root,
    server,
    browser,
    async close() {
      try {
        await browser.close();
      } finally {
        await server.close();
        if (scratch) await rm(root, { recursive: true, force: true });
      }
    },
  };
}
