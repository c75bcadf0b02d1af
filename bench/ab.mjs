// ab.mjs — per turn, two or more builds of ours against the AI SDK, in
// interleaved rounds: for comparing a change with its base on a machine
// whose load drifts (each contender's number is a ratio to the AI SDK
// measured in the same rounds). Node: loop.mjs's processes; Chromium:
// browser-entry.mjs's page, a fresh context per measurement.
//
//   node bench/ab.mjs <node|chromium> <rounds> <label>=<dist> [<label>=<dist> …]
//
// Each dist is a folder with web/ as `./build.sh` writes it (TOOLNEXUS_DIST).
// Prints, per history, the median over rounds of each process's (or page's)
// median run / 10 turns, the minimum over rounds, and (Node) CPU ms per run.

import { spawn } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";
import { serve } from "../scripts/serve.mjs";
import { median } from "./checked-loop.mjs";

const here = fileURLToPath(new URL(".", import.meta.url));
const root = join(here, "..");
const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 20);
const FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync"];

const [mode, roundsArg, ...pairs] = process.argv.slice(2);
const rounds = Number(roundsArg);
const dists = pairs.map((p) => p.split("="));
if (!["node", "chromium"].includes(mode) || !(rounds > 0) || !dists.length || dists.some((d) => d.length !== 2)) {
  console.error("usage: node bench/ab.mjs <node|chromium> <rounds> <label>=<dist> [<label>=<dist> …]");
  process.exit(2);
}
const load = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");

// One measurement per [label, dist, contender, history]; the AI SDK runs from the first dist.
const jobs = [];
for (const h of [0, 200]) {
  for (const [label, dist] of dists) jobs.push([label, dist, "ours", h]);
  jobs.push(["ai-sdk", dists[0][1], "ai-sdk", h]);
}
const res = {};
const add = (k, v) => (res[k] ??= []).push(v);

function nodeOne(dist, name, h) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(here, "loop.mjs"), "one", name, String(h)],
      { env: { ...process.env, TOOLNEXUS_DIST: dist }, stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (c) => { out += c; });
    child.on("close", (code) => (code ? reject(new Error(`${name} ${h}: exit ${code}`)) : resolve(JSON.parse(out.trim().split("\n").pop()))));
  });
}

// sitePages writes, per dist, <site>/<label>/{web, bench-page}: the page
// finds web/ next to bench-page/ (browser-entry.mjs).
async function sitePages(site) {
  for (const [label, dist] of dists) {
    mkdirSync(join(site, label, "bench-page"), { recursive: true });
    cpSync(join(dist, "web"), join(site, label, "web"), { recursive: true });
    await build({ entryPoints: [join(here, "browser-entry.mjs")], outfile: join(site, label, "bench-page", "loop.js"),
      bundle: true, format: "esm", platform: "browser", target: "es2022", logLevel: "error", external: ["node:*"] });
    cpSync(join(here, "loop.html"), join(site, label, "bench-page", "loop.html"));
  }
}

console.error(`load average at start: ${load()}`);
if (mode === "node") {
  for (let r = 0; r < rounds; r++) {
    for (const [label, dist, name, h] of jobs.map((_, i) => jobs[(i + r) % jobs.length])) {
      const x = await nodeOne(dist, name, h);
      add(`${label} ${h}`, x.msPerTurn);
      add(`${label} ${h} cpu`, x.cpuMsPerRun);
    }
  }
} else {
  const site = mkdtempSync(join(tmpdir(), "bench-ab-"));
  try {
    await sitePages(site);
    const { chromium } = await import(pathToFileURL(join(root, "tests", "node_modules", "playwright-core", "index.mjs")).href);
    const server = await serve({ root: site, port: 0 });
    const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", headless: true, args: FLAGS });
    const siteOf = (dist) => dists.find((d) => d[1] === dist)[0];
    try {
      for (let r = 0; r < rounds; r++) {
        for (const [label, dist, name, h] of jobs.map((_, i) => jobs[(i + r) % jobs.length])) {
          const context = await browser.newContext();
          const page = await context.newPage();
          await page.goto(`${server.url}${siteOf(dist)}/bench-page/loop.html`);
          await page.waitForFunction(() => typeof globalThis.benchLoop === "function");
          add(`${label} ${h}`, await page.evaluate(([n, hh, runs, warm]) => globalThis.benchLoop(n, hh, runs, warm), [name, h, RUNS, WARMUP]));
          await context.close();
        }
      }
    } finally {
      await browser.close();
      await server.close();
    }
  } finally {
    rmSync(site, { recursive: true, force: true });
  }
}
console.error(`load average at end: ${load()}`);
const min = (k) => Math.min(...res[k]);
for (const h of [0, 200]) {
  const a = median(res[`ai-sdk ${h}`]);
  let line = `${mode}, history ${h}: AI SDK ${a.toFixed(3)} ms/turn (min ${min(`ai-sdk ${h}`).toFixed(3)})`;
  for (const [label] of dists) {
    const o = median(res[`${label} ${h}`]);
    line += `; ${label} ${o.toFixed(3)} ms = ${(o / a).toFixed(2)}× (min ${min(`${label} ${h}`).toFixed(3)} = ${(min(`${label} ${h}`) / min(`ai-sdk ${h}`)).toFixed(2)}×)`;
    if (mode === "node") line += `, CPU ${median(res[`${label} ${h} cpu`]).toFixed(2)} vs ${median(res[`ai-sdk ${h} cpu`]).toFixed(2)} ms/run = ${(median(res[`${label} ${h} cpu`]) / median(res[`ai-sdk ${h} cpu`])).toFixed(2)}×`;
  }
  console.log(line);
}
console.log(JSON.stringify({ mode, rounds, runs: RUNS, warmup: WARMUP, results: res }));
