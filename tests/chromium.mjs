// chromium.mjs — what every Chromium test shares: the launch options for
// Debian's chromium (never a downloaded browser) and a fresh, always-closed
// context per test that records what went wrong on the page.

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
