// aisdk-browser.test.mjs — a React page built on @ai-sdk/react's useChat
// (tests/aisdk-page.mjs, bundled here with esbuild) in Chromium: once against the
// Worker's POST /v1/ui on workerd, once with toolnexus.mjs's chatTransport in
// the tab (issue 25). Type "refund order 42", see the approval UI the page
// renders from the AI SDK's approval-requested part, approve, see the result;
// no console errors. Run after ./build.sh and ./build.sh worker:
//
//   cd tests && timeout 300 node --test --test-force-exit aisdk-browser.test.mjs

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { startSite, withPage } from "./chromium.mjs";
import { startWorker } from "./worker-harness.mjs";
import { startWorkerMock } from "./worker-mock.mjs";

const here = fileURLToPath(new URL(".", import.meta.url));
const WEB = process.env.TOOLNEXUS_WEB ?? join(process.env.TOOLNEXUS_DIST ?? join(here, "..", "dist"), "web");
const TOKEN = "aisdk-browser-token-91e2";

let site, mock, worker;

before(async () => {
  assert.ok(existsSync(join(WEB, "toolnexus.wasm")), `no build in ${WEB}: run ./build.sh first`);
  site = await startSite(WEB, { scratch: true });
  await build({
    entryPoints: [join(here, "aisdk-page.mjs")],
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    external: ["./toolnexus.mjs", "./demo-model.mjs"],
    define: { "process.env.NODE_ENV": '"production"' },
    outfile: join(site.root, "aisdk-page.js"),
    logLevel: "error",
  });
  await writeFile(join(site.root, "aisdk.html"), `<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>AI SDK chat</title><script type="module" src="./aisdk-page.js"></script></head>
<body><div id="root"></div></body></html>`);
  mock = await startWorkerMock();
  worker = await startWorker({
    LLM_BASE_URL: `${mock.url}/v1`, LLM_MODEL: "mock-model", LLM_API_KEY: "sk-aisdk-browser",
    STATE_SECRET: "aisdk-browser-secret-0123456789abcdef", API_TOKEN: TOKEN,
    ALLOWED_ORIGINS: new URL(site.server.url).origin,
  });
});

after(async () => {
  await worker?.dispose().catch(() => {});
  await mock?.close();
  await site?.close();
});

// approveRefund plays the scenario on the page and returns the last
// assistant message's text.
async function approveRefund(page) {
  await page.waitForSelector("body[data-ready]");
  await page.fill("#prompt", "refund order 42");
  await page.click("#send");
  const tool = page.locator('li.assistant .tool[data-tool="refund"]');
  await tool.locator(".approve").waitFor();
  assert.equal(await tool.getAttribute("data-state"), "approval-requested");
  assert.match(await tool.locator(".call").textContent(), /refund\(\{"order":("42"|42)\}\)/);
  await tool.locator(".approve").click();
  await page.waitForSelector('li.assistant .tool[data-state="output-available"]');
  await page.waitForFunction(() => document.querySelector("#status")?.textContent === "ready" &&
    document.querySelectorAll("li.assistant .text").length > 0);
  assert.equal(await tool.locator(".output").textContent(), "refunded order 42");
  assert.equal(await page.locator("li.assistant").count(), 1, "the answer continues the same message");
  return page.locator("li.assistant .text").last().textContent();
}

test("useChat against the Worker: approve a refund, see the result", { timeout: 60_000 }, async () => {
  await withPage(site.browser, async (page, problems) => {
    const api = new URL("/v1/ui", worker.url).href;
    await page.goto(`${site.server.url}aisdk.html?mode=worker&api=${encodeURIComponent(api)}&token=${TOKEN}`);
    assert.match(await approveRefund(page), /done: refunded order 42/);
    assert.deepEqual(problems, []);
  });
});

test("useChat with the in-tab transport: approve a refund, see the result", { timeout: 60_000 }, async () => {
  await withPage(site.browser, async (page, problems) => {
    await page.goto(`${site.server.url}aisdk.html?mode=tab`);
    assert.match(await approveRefund(page), /Done: refunded order 42/);
    assert.deepEqual(problems, []);
  });
});
