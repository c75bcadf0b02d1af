// ready-time.mjs — measures navigation-to-ready of the demo page in headless
// chromium (the "toolnexus:ready" performance mark), as a median over fresh
// contexts. A measurement, not a test:
//
//   ./build.sh && timeout 120 node tests/ready-time.mjs [runs=9]

import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { serve } from "../scripts/serve.mjs";

const here = fileURLToPath(new URL(".", import.meta.url));
const WEB = process.env.TOOLNEXUS_WEB ?? join(process.env.TOOLNEXUS_DIST ?? join(here, "..", "dist"), "web");
const runs = Number(process.argv[2] ?? 9);

const server = await serve({ root: WEB, port: 0 });
let browser;
try {
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  const marks = { wasm: [], ready: [] };
  for (let i = 0; i < runs; i++) {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(server.url);
      await page.waitForSelector("html[data-ready='1']", { timeout: 30_000 });
      const m = await page.evaluate(() => ({
        wasm: performance.getEntriesByName("toolnexus:wasm-loaded")[0].startTime,
        ready: performance.getEntriesByName("toolnexus:ready")[0].startTime,
      }));
      marks.wasm.push(m.wasm);
      marks.ready.push(m.ready);
    } finally {
      await context.close();
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  console.log(`runs: ${runs} (fresh context each, no cache)`);
  console.log(`navigation -> wasm instantiated: median ${median(marks.wasm).toFixed(1)} ms`);
  console.log(`navigation -> ready:             median ${median(marks.ready).toFixed(1)} ms (min ${Math.min(...marks.ready).toFixed(1)}, max ${Math.max(...marks.ready).toFixed(1)})`);
} finally {
  await browser?.close();
  await server.close();
}
