// scenario-report.mjs — run a scenario module against one loaded wasm, in
// Node or in the demo page in Chromium, and assert its report: one subtest
// per scenario, each must pass and leave the module working. Shared by
// faults.test.mjs (runtime-scenarios.mjs) and hostile-input.test.mjs
// (deep-scenarios.mjs).

import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { serve } from "../scripts/serve.mjs";
import { LAUNCH } from "./chromium.mjs";

/** checkReport asserts at least min scenarios ran, each as its own subtest. */
export async function checkReport(t, report, min) {
  assert.ok(report.length >= min, `only ${report.length} scenarios ran`);
  for (const r of report) {
    await t.test(r.name, () => {
      assert.ok(r.pass, `${r.name}: ${r.detail}`);
      assert.ok(r.healthyAfter, `the module stopped working after: ${r.name} (${r.detail})`);
    });
  }
}

/**
 * reportInChromium serves web, opens the demo page once it is ready and
 * returns what scenarios(arg) reports there; an uncaught error in the page
 * fails the test.
 */
export async function reportInChromium(web, scenarios, arg) {
  assert.ok(existsSync(join(web, "toolnexus.wasm")), `no build in ${web}: run ./build.sh first`);
  const server = await serve({ root: web, port: 0 });
  const browser = await chromium.launch(LAUNCH);
  try {
    const page = await browser.newPage();
    const crashes = [];
    page.on("pageerror", (e) => crashes.push(e.message));
    page.on("crash", () => crashes.push("page crashed"));
    await page.goto(server.url);
    await page.waitForSelector("html[data-ready='1']", { timeout: 30_000 });
    const report = await page.evaluate(scenarios, arg);
    assert.deepEqual(crashes, [], "uncaught errors in the page");
    return report;
  } finally {
    await browser.close().catch(() => {});
    await server.close();
  }
}
