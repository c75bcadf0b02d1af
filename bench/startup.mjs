// startup.mjs — start-up of the browser build: the demo page in headless
// chromium (navigation → ready and wasm loaded → ready, from the page's
// performance marks toolnexus:wasm-loaded / toolnexus:ready, a fresh context
// each), and Node process start → ready for each loop contender.
//
//   node bench/startup.mjs [runs=10]     (after ./build.sh build)

import { spawn } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { serve } from "../scripts/serve.mjs";
import { contenders } from "./contenders.mjs";
import { median, NAMES } from "./loop.mjs";

const here = fileURLToPath(new URL(".", import.meta.url));
const root = join(here, "..");
const dist = process.env.TOOLNEXUS_DIST ?? join(root, "dist");
const CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync"];

export async function measureChromium(runs = 10) {
  const { chromium } = await import(pathToFileURL(join(root, "tests", "node_modules", "playwright-core", "index.mjs")).href);
  const server = await serve({ root: join(dist, "web"), port: 0 });
  let browser;
  const nav = [], go = [], wasm = [];
  try {
    browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", headless: true, args: CHROMIUM_FLAGS });
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
        nav.push(m.ready);
        wasm.push(m.wasm);
        go.push(m.ready - m.wasm);
      } finally {
        await context.close();
      }
    }
  } finally {
    await browser?.close();
    await server.close();
  }
  return { runs, navToReady: median(nav), navToWasm: median(wasm), wasmToReady: median(go), wasmToReadyMin: Math.min(...go), wasmToReadyMax: Math.max(...go) };
}

// measureNode spawns `runs` fresh processes per contender; each reports
// performance.now() (ms since its process started) once the contender is
// set up and ready to run, and the parent times spawn → that line.
export async function measureNode(runs = 10) {
  const out = {};
  for (const name of NAMES) {
    const inProcess = [], wall = [];
    for (let i = 0; i < runs; i++) {
      const t = performance.now();
      const ms = await new Promise((resolve, reject) => {
        const child = spawn(process.execPath, [fileURLToPath(import.meta.url), "ready", name], { stdio: ["ignore", "pipe", "inherit"] });
        let text = "";
        child.stdout.on("data", (c) => {
          text += c;
          if (text.includes("\n")) resolve(Number(text.trim()));
        });
        child.on("error", reject);
        child.on("close", (code) => { if (code !== 0) reject(new Error(`startup ready ${name}: exit ${code}`)); });
      });
      wall.push(performance.now() - t);
      inProcess.push(ms);
    }
    out[name] = { runs, inProcess: median(inProcess), spawnToReady: median(wall) };
  }
  return out;
}

if (process.argv[2] === "ready") {
  const name = process.argv[3];
  await contenders[name]({ fetch: globalThis.fetch, history: [], onTool() {}, dist: pathToFileURL(dist + "/") });
  process.stdout.write(`${performance.now()}\n`, () => process.exit(0));
} else if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const runs = Number(process.argv[2] ?? 10);
  console.log(JSON.stringify({ chromium: await measureChromium(runs), node: await measureNode(runs) }, null, 2));
}
