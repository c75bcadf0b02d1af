// startup.mjs — start-up of the browser build, in headless chromium, and
// Node process start → ready for each loop contender.
//
// Chromium (issue 27):
//   - first use, a fresh context per run, served from 127.0.0.1:
//     navigation → visible and focusable (the demo page's message box, and
//     <toolnexus-chat>'s: laid out, enabled, takes focus, and the page has
//     painted), navigation → first reply with the offline model (the bench
//     types "add 2 and 3" as soon as the box is focusable and waits for
//     "2 + 3 = 5"), the same for a static page with one text box (the
//     floor on this machine), and the demo page's navigation → wasm loaded
//     → ready (performance marks toolnexus:wasm-loaded / toolnexus:ready);
//   - fetch → load() resolved (bench/load.html) against a minimal Go program
//     (bench/minimal), both served under content-hashed names with brotli as
//     scripts/serve.mjs serves them: a first visit (a new profile directory),
//     then a returning visitor (the same profile, a new browser process, so
//     Chromium's disk caches — HTTP and compiled wasm code — are what is reused).
//
//   node bench/startup.mjs [runs=10] [all|chromium]     (after ./build.sh build)

import { execFileSync, spawn } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { serve } from "../scripts/serve.mjs";
import { brotli, hashedName } from "../scripts/wasm-hash.mjs";
import { contenders } from "./contenders.mjs";
import { median, NAMES } from "./loop.mjs";

const here = fileURLToPath(new URL(".", import.meta.url));
const root = join(here, "..");
const dist = process.env.TOOLNEXUS_DIST ?? join(root, "dist");
const CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync"];
const LAUNCH = { executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", headless: true, args: CHROMIUM_FLAGS };

const playwright = () => import(pathToFileURL(join(root, "tests", "node_modules", "playwright-core", "index.mjs")).href);

// preparePages writes dist/bench-start: the load page, the minimal Go program
// under a content-hashed name (with its .br, as the build does for ours) and
// a page with one <toolnexus-chat demo>. It returns the minimal's file name.
async function preparePages() {
  const out = join(dist, "bench-start");
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  for (const f of ["load.html", "load.mjs"]) copyFileSync(join(here, f), join(out, f));
  const tmp = join(out, "minimal.wasm");
  execFileSync("go", ["build", "-trimpath", "-ldflags=-s -w", "-o", tmp, "./bench/minimal"],
    { cwd: root, env: { ...process.env, GOOS: "js", GOARCH: "wasm" }, stdio: "inherit" });
  const bytes = readFileSync(tmp);
  const minimal = hashedName("minimal.wasm", bytes);
  writeFileSync(join(out, minimal), bytes);
  writeFileSync(join(out, `${minimal}.br`), await brotli(bytes));
  // The floor: a static page with one text box, nothing loaded.
  writeFileSync(join(out, "floor.html"), `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>bench: floor</title></head>
<body><label>Message <input id="message"></label></body></html>
`);
  writeFileSync(join(out, "element.html"), `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>bench: element</title>
<script type="module" src="../web/toolnexus-chat.mjs"></script></head><body>
<toolnexus-chat demo></toolnexus-chat>
</body></html>
`);
  return minimal;
}

// watchFirstUse is page-side: every animation frame it looks for the message
// box and the reply, and records when each was first seen (ms since navigation).
function watchFirstUse(kind) {
  const box = () => (kind === "element"
    ? document.querySelector("toolnexus-chat")?.shadowRoot?.querySelector("input")
    : document.getElementById("message"));
  const log = () => (kind === "element"
    ? document.querySelector("toolnexus-chat")?.shadowRoot?.querySelector("[role=log]")
    : document.getElementById("transcript"));
  const t = (globalThis.__firstUse = { paint: null, visible: null, reply: null });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (e.name === "first-contentful-paint") t.paint ??= e.startTime;
  }).observe({ type: "paint", buffered: true });
  const frame = () => {
    const now = performance.now();
    const b = box();
    if (t.visible == null && b && !b.disabled && b.getBoundingClientRect().width > 0) {
      b.focus();
      const active = kind === "element" ? b.getRootNode().activeElement : document.activeElement;
      if (active === b) t.visible = now;
    }
    if (t.reply == null && /2 \+ 3 = 5/.test(log()?.textContent ?? "")) t.reply = now;
    if (t.reply == null) requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
}

async function firstUseOnce(browser, url, kind) {
  const context = await browser.newContext();
  try {
    await context.addInitScript(watchFirstUse, kind);
    const page = await context.newPage();
    await page.goto(url, { waitUntil: "commit" });
    await page.waitForFunction(() => globalThis.__firstUse?.visible != null, null, { timeout: 30_000, polling: "raf" });
    if (kind === "floor") {
      const m = await page.evaluate(() => globalThis.__firstUse);
      return { visible: Math.max(m.visible, m.paint ?? 0) };
    }
    const scope = kind === "element" ? page.locator("toolnexus-chat") : page;
    await scope.getByRole("textbox", { name: "Message" }).fill("add 2 and 3");
    await scope.getByRole("button", { name: "Send" }).click();
    await page.waitForFunction(() => globalThis.__firstUse.reply != null, null, { timeout: 60_000 });
    const m = await page.evaluate(() => ({
      ...globalThis.__firstUse,
      wasm: performance.getEntriesByName("toolnexus:wasm-loaded")[0]?.startTime,
      ready: performance.getEntriesByName("toolnexus:ready")[0]?.startTime,
    }));
    // Visible means painted too: the box may be in the DOM before the first paint.
    return { visible: Math.max(m.visible, m.paint ?? 0), reply: m.reply, wasm: m.wasm, ready: m.ready };
  } finally {
    await context.close();
  }
}

/** navigation → visible+focusable and → first reply, demo page and element; the demo's marks. */
export async function measureChromium(runs = 10) {
  const { chromium } = await playwright();
  await preparePages();
  const server = await serve({ root: dist, port: 0 });
  let browser;
  const r = { demo: [], element: [], floor: [] };
  const urls = { demo: `${server.url}web/`, element: `${server.url}bench-start/element.html`, floor: `${server.url}bench-start/floor.html` };
  try {
    browser = await chromium.launch(LAUNCH);
    for (let i = 0; i < runs; i++) {
      for (const kind of i % 2 ? ["floor", "element", "demo"] : ["demo", "element", "floor"]) {
        const url = urls[kind];
        r[kind].push(await firstUseOnce(browser, url, kind));
      }
    }
  } finally {
    await browser?.close();
    await server.close();
  }
  const med = (xs, k) => median(xs.map((x) => x[k]));
  const go = r.demo.map((x) => x.ready - x.wasm);
  return {
    runs,
    demo: { visible: med(r.demo, "visible"), visibleMax: Math.max(...r.demo.map((x) => x.visible)), reply: med(r.demo, "reply") },
    element: { visible: med(r.element, "visible"), visibleMax: Math.max(...r.element.map((x) => x.visible)), reply: med(r.element, "reply") },
    // A static page with one text box: what this machine and browser take at best.
    floor: { visible: med(r.floor, "visible") },
    // The demo page's marks (as before issue 27).
    navToReady: med(r.demo, "ready"), navToWasm: med(r.demo, "wasm"),
    wasmToReady: median(go), wasmToReadyMin: Math.min(...go), wasmToReadyMax: Math.max(...go),
  };
}

// loadVisit opens the load page in a browser process on profile and returns
// fetch → load() resolved (ms) and the wasm's Content-Encoding.
async function loadVisit(chromium, profile, url) {
  const context = await chromium.launchPersistentContext(profile, LAUNCH);
  try {
    const page = context.pages()[0] ?? await context.newPage();
    const wasm = [];
    page.on("response", (res) => {
      if (/\.wasm$/.test(new URL(res.url()).pathname)) wasm.push(res.allHeaders().then((h) => h["content-encoding"] ?? "", () => ""));
    });
    await page.goto(url);
    await page.waitForFunction(() => typeof globalThis.benchLoaded === "number", null, { timeout: 30_000 });
    const ms = await page.evaluate(() => globalThis.benchLoaded);
    await page.waitForTimeout(2500); // V8 writes its wasm code cache after a while
    return { ms, encoding: (await wasm[0]) ?? "" };
  } finally {
    await context.close();
  }
}

/** fetch → load() resolved, ours vs the minimal Go program: first visit and returning visitor. */
export async function measureLoad(runs = 10) {
  const { chromium } = await playwright();
  const minimal = await preparePages();
  const server = await serve({ root: dist, port: 0 });
  const r = { ours: { first: [], repeat: [] }, minimal: { first: [], repeat: [] } };
  let encoding = "";
  try {
    for (let i = 0; i < runs; i++) {
      for (const what of i % 2 ? ["minimal", "ours"] : ["ours", "minimal"]) {
        const profile = mkdtempSync(join(tmpdir(), "bench-profile-"));
        try {
          const url = `${server.url}bench-start/load.html?what=${what}&minimal=${minimal}`;
          const first = await loadVisit(chromium, profile, url);
          const repeat = await loadVisit(chromium, profile, url);
          r[what].first.push(first.ms);
          r[what].repeat.push(repeat.ms);
          if (what === "ours") encoding = first.encoding;
        } finally {
          rmSync(profile, { recursive: true, force: true });
        }
      }
    }
  } finally {
    await server.close();
  }
  const out = { runs, encoding: encoding || "identity" };
  for (const [what, x] of Object.entries(r)) {
    out[what] = { first: median(x.first), firstMin: Math.min(...x.first), repeat: median(x.repeat), repeatMin: Math.min(...x.repeat) };
  }
  out.firstRatio = out.ours.first / out.minimal.first;
  out.repeatRatio = out.ours.repeat / out.minimal.repeat;
  return out;
}

/** The lines ./build.sh bench prints. */
export function startupLines(c, l) {
  const f = (x) => x.toFixed(1);
  return [
    `chromium navigation → visible and focusable (median of ${c.runs}; target ≤ 100 ms): demo page ${f(c.demo.visible)} ms (max ${f(c.demo.visibleMax)}), <toolnexus-chat> ${f(c.element.visible)} ms (max ${f(c.element.visibleMax)}); a static page with one text box ${f(c.floor.visible)} ms`,
    `chromium navigation → first reply, offline model: demo page ${f(c.demo.reply)} ms, <toolnexus-chat> ${f(c.element.reply)} ms`,
    `chromium fetch → load(), first visit (median of ${l.runs}): ours ${f(l.ours.first)} ms, minimal Go ${f(l.minimal.first)} ms: ${l.firstRatio.toFixed(2)}× (target ≤ 1.6×)`,
    `chromium fetch → load(), returning visitor (same profile, new browser process): ours ${f(l.ours.repeat)} ms, minimal Go ${f(l.minimal.repeat)} ms: ${l.repeatRatio.toFixed(2)}× (target ≤ 1.3×); ours repeat/first ${(l.ours.repeat / l.ours.first).toFixed(2)}× (wasm sent as ${l.encoding})`,
  ];
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
  const what = process.argv[3] ?? "all"; // all | chromium (skips the Node contenders)
  const load0 = loadavg()[0];
  const chromium = await measureChromium(runs);
  const load = await measureLoad(runs);
  for (const line of startupLines(chromium, load)) console.error(`   ${line}`);
  console.error(`   load average (1 min) at start / end: ${load0.toFixed(2)} / ${loadavg()[0].toFixed(2)}`);
  const node = what === "chromium" ? undefined : await measureNode(runs);
  console.log(JSON.stringify({ chromium, load, node }, null, 2));
}
