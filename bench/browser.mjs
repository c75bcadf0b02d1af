// browser.mjs — issue 14's Chromium measurements, side by side in headless
// chromium:
//   - per turn: loop.mjs's scenario (same contenders, same scripted model,
//     same checks) in a page, ours against the Vercel AI SDK, at 0 and 200
//     messages of history; each measurement in a fresh context, rounds
//     interleaved, the median over rounds of each page's median run / 10.
//   - start-up: fetch → load() resolved against a minimal Go wasm program
//     (bench/minimal: main sets a global and blocks), fresh contexts
//     alternating, then a repeat visit (a reload in the same context, files
//     cacheable) for each.
//
//   node bench/browser.mjs [rounds=3]        (after ./build.sh build)

import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";
import { serve } from "../scripts/serve.mjs";
import { median } from "./loop.mjs";

const here = fileURLToPath(new URL(".", import.meta.url));
const root = join(here, "..");
const dist = process.env.TOOLNEXUS_DIST ?? join(root, "dist");
const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 20);
export const BROWSER_NAMES = ["ours", "ai-sdk", "ai-sdk-6"];
const FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync"];

// preparePages writes dist/bench-page: the loop bundle, the load page and
// the minimal Go program.
async function preparePages() {
  const out = join(dist, "bench-page");
  mkdirSync(out, { recursive: true });
  await build({
    entryPoints: [join(here, "browser-entry.mjs")], outfile: join(out, "loop.js"),
    bundle: true, format: "esm", platform: "browser", target: "es2022", logLevel: "error",
    external: ["node:*"],
  });
  for (const f of ["loop.html", "load.html", "load.mjs"]) cpSync(join(here, f), join(out, f));
  execFileSync("go", ["build", "-trimpath", "-ldflags=-s -w", "-o", join(out, "minimal.wasm"), "./bench/minimal"],
    { cwd: root, env: { ...process.env, GOOS: "js", GOARCH: "wasm" }, stdio: "inherit" });
  return out;
}

async function withBrowser(fn) {
  const { chromium } = await import(pathToFileURL(join(root, "tests", "node_modules", "playwright-core", "index.mjs")).href);
  const server = await serve({ root: dist, port: 0 });
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", headless: true, args: FLAGS });
  try {
    return await fn(browser, server.url);
  } finally {
    await browser.close();
    await server.close();
  }
}

async function loopOnce(browser, url, name, history) {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(url + "bench-page/loop.html");
    await page.waitForFunction(() => typeof globalThis.benchLoop === "function");
    return await page.evaluate(([n, h, r, w]) => globalThis.benchLoop(n, h, r, w), [name, history, RUNS, WARMUP]);
  } finally {
    await context.close();
  }
}

export async function measureBrowserLoop(rounds = 3, log = console.error) {
  await preparePages();
  const jobs = [0, 200].flatMap((h) => BROWSER_NAMES.map((n) => [n, h]));
  const all = [];
  await withBrowser(async (browser, url) => {
    for (let r = 0; r < rounds; r++) {
      const order = jobs.map((_, i) => jobs[(i + r) % jobs.length]);
      for (const [n, h] of order) {
        const ms = await loopOnce(browser, url, n, h);
        log(`   chromium round ${r + 1}/${rounds} ${n.padEnd(6)} history ${String(h).padStart(3)}: ${ms.toFixed(3)} ms/turn`);
        all.push({ name: n, history: h, msPerTurn: ms });
      }
    }
  });
  return [0, 200].flatMap((h) => BROWSER_NAMES.map((n) => {
    const xs = all.filter((x) => x.name === n && x.history === h).map((x) => x.msPerTurn);
    return { name: n, history: h, rounds, runs: RUNS, warmup: WARMUP, msPerTurn: median(xs), min: Math.min(...xs), max: Math.max(...xs) };
  }));
}

// loadOnce opens the load page in a fresh context, then reloads it (the
// repeat visit) and returns both times.
async function loadOnce(browser, url, what) {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const visit = async (go) => {
      await go();
      await page.waitForFunction(() => typeof globalThis.benchLoaded === "number", null, { timeout: 30_000 });
      return page.evaluate(() => [globalThis.benchLoaded, globalThis.benchInstantiated]);
    };
    const [first, firstInst] = await visit(() => page.goto(`${url}bench-page/load.html?what=${what}`));
    await page.waitForTimeout(2500); // V8 writes its wasm code cache after a while
    const [repeat] = await visit(() => page.reload());
    return { first, firstInst, repeat };
  } finally {
    await context.close();
  }
}

export async function measureBrowserLoad(runs = 10, log = console.error) {
  await preparePages();
  const res = { ours: { first: [], firstInst: [], repeat: [] }, minimal: { first: [], firstInst: [], repeat: [] } };
  await withBrowser(async (browser, url) => {
    for (let i = 0; i < runs; i++) {
      for (const what of i % 2 ? ["minimal", "ours"] : ["ours", "minimal"]) {
        const { first, firstInst, repeat } = await loadOnce(browser, url, what);
        res[what].first.push(first);
        res[what].firstInst.push(firstInst);
        res[what].repeat.push(repeat);
      }
    }
  });
  const out = {};
  for (const [what, r] of Object.entries(res)) {
    out[what] = { runs, first: median(r.first), firstMin: Math.min(...r.first), instantiated: median(r.firstInst),
      repeat: median(r.repeat), repeatMin: Math.min(...r.repeat) };
  }
  const line = (o) => `${o.first.toFixed(1)} ms (instance made at ${o.instantiated.toFixed(1)}; repeat visit ${o.repeat.toFixed(1)})`;
  log(`   chromium fetch → ready: ours ${line(out.ours)}, minimal Go ${line(out.minimal)}`);
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const what = process.argv[2] ?? "all";
  const rounds = Number(process.argv[3] ?? 3);
  const out = {};
  if (what === "all" || what === "load") out.load = await measureBrowserLoad(Number(process.argv[3] ?? 10));
  if (what === "all" || what === "loop") {
    out.loop = await measureBrowserLoop(rounds);
    for (const h of [0, 200]) {
      const o = out.loop.find((x) => x.name === "ours" && x.history === h).msPerTurn;
      const a = out.loop.find((x) => x.name === "ai-sdk" && x.history === h).msPerTurn;
      console.error(`   chromium per turn, history ${h}: ours ${o.toFixed(3)} ms, AI SDK ${a.toFixed(3)} ms: ${(o / a).toFixed(2)}× (target ≤ 0.5×)`);
    }
  }
  if (out.load) console.error(`   chromium fetch → load(): ${(out.load.ours.first / out.load.minimal.first).toFixed(2)}× the minimal Go program (target ≤ 1.5×); repeat visit ${(out.load.ours.repeat / out.load.minimal.repeat).toFixed(2)}×`);
  console.log(JSON.stringify(out, null, 2));
}
