// profile.mjs — where our loop spends its time: CPU profiles of the Node
// contender (node --cpu-prof, over an unstripped wasm so Go function names
// show) with and without history, and of core's native BenchmarkLoop
// (go test -cpuprofile). Prints self time by function and by area, and the
// code bytes of the browser and Worker wasm by Go package (from the wasm's
// name section: `go tool nm` cannot read wasm).
//
//   node bench/profile.mjs          (after ./build.sh build; ./build.sh bench profile)

import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { serve } from "../scripts/serve.mjs";
import { summarize } from "./cpuprofile.mjs";
import { spawnOne } from "./loop.mjs";

const here = fileURLToPath(new URL(".", import.meta.url));
const root = join(here, "..");
const dist = process.env.TOOLNEXUS_DIST ?? join(root, "dist");
const TOP = Number(process.env.PROFILE_TOP ?? 25);

// chromiumProfile loads the demo page (from dir) in headless chromium under
// the CDP sampling profiler and returns the profile of navigation → ready.
async function chromiumProfile(dir) {
  const { chromium } = await import(join(root, "tests", "node_modules", "playwright-core", "index.mjs"));
  const server = await serve({ root: dir, port: 0 });
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"] });
  try {
    const page = await (await browser.newContext()).newPage();
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Profiler.enable");
    await cdp.send("Profiler.setSamplingInterval", { interval: 100 });
    await cdp.send("Profiler.start");
    await page.goto(server.url);
    await page.waitForSelector("html[data-ready='1']", { timeout: 30_000 });
    const span = await page.evaluate(() => performance.getEntriesByName("toolnexus:ready")[0].startTime - performance.getEntriesByName("toolnexus:wasm-loaded")[0].startTime);
    const { profile } = await cdp.send("Profiler.stop");
    return { profile, span };
  } finally {
    await browser.close();
    await server.close();
  }
}

// codeByPackage sums the code-section bytes of each Go package's functions.
export function codeByPackage(bytes) {
  let p = 0;
  const leb = (b) => { let r = 0, s = 0, x; do { x = b[p++]; r += (x & 0x7f) * 2 ** s; s += 7; } while (x & 0x80); return r; };
  const mod = new WebAssembly.Module(bytes);
  const imported = WebAssembly.Module.imports(mod).filter((i) => i.kind === "function").length;
  const names = new Map();
  const ns = new Uint8Array(WebAssembly.Module.customSections(mod, "name")[0] ?? new ArrayBuffer(0));
  for (p = 0; p < ns.length;) {
    const id = ns[p++], end = leb(ns) + p;
    if (id === 1) {
      for (let n = leb(ns); n > 0; n--) {
        const idx = leb(ns), len = leb(ns);
        names.set(idx, Buffer.from(ns.subarray(p, p + len)).toString());
        p += len;
      }
    }
    p = end;
  }
  const sections = {};
  for (p = 8; p < bytes.length;) {
    const id = bytes[p++], len = leb(bytes);
    sections[id] = { start: p, len };
    p += len;
  }
  const pkgs = new Map();
  p = sections[10].start;
  for (let i = 0, n = leb(bytes); i < n; i++) {
    const size = leb(bytes);
    p += size;
    const name = names.get(imported + i) ?? "?"; // e.g. github.com_tidwall_gjson.parseObject
    const pkg = name.match(/^((?:[a-z0-9-]+\.[a-z]+_)?[^.]+)\./)?.[1] ?? name;
    pkgs.set(pkg, (pkgs.get(pkg) ?? 0) + size);
  }
  return { code: sections[10].len, data: sections[11]?.len ?? 0, pkgs: [...pkgs].sort((a, b) => b[1] - a[1]) };
}

const tmp = mkdtempSync(join(tmpdir(), "bench-prof-"));
try {
  // An unstripped copy of the browser wasm, so the profile names Go functions.
  cpSync(join(dist, "web"), join(tmp, "web"), { recursive: true });
  const goJS = { cwd: root, env: { ...process.env, GOOS: "js", GOARCH: "wasm" }, stdio: "inherit" };
  execFileSync("go", ["build", "-trimpath", "-o", join(tmp, "web", "toolnexus.wasm"), "./wasm/browser"], goJS);
  if (existsSync(join(tmp, "web", "toolnexus-tools.wasm"))) { // the demo page's build (scripts/browser.sh)
    execFileSync("go", ["build", "-trimpath", "-o", join(tmp, "web", "toolnexus-tools.wasm"), "./wasm/browser-tools"], goJS);
  }
  process.env.TOOLNEXUS_DIST = tmp;
  execFileSync("go", ["build", "-trimpath", "-o", join(tmp, "worker.wasm"), "./wasm/worker"],
    { cwd: root, env: { ...process.env, GOOS: "js", GOARCH: "wasm" }, stdio: "inherit" });
  for (const [what, file] of [["browser", join(tmp, "web", "toolnexus.wasm")], ["Worker", join(tmp, "worker.wasm")]]) {
    const { code, data, pkgs } = codeByPackage(readFileSync(file));
    console.log(`\n== ${what} wasm: code section ${code} bytes, data section ${data} bytes; code bytes by Go package (top ${TOP})`);
    console.log(pkgs.slice(0, TOP).map(([k, v]) => `${String(v).padStart(9)}  ${k}`).join("\n"));
  }
  const { profile, span } = await chromiumProfile(join(tmp, "web"));
  const start = summarize(profile);
  console.log(`\n== chromium, demo page, navigation → ready (unstripped wasm; wasm loaded → ready took ${span.toFixed(1)} ms in this load; "(program)" includes wasm compilation)`);
  console.log("-- self time by area\n" + start.areas.join("\n"));
  console.log(`-- self time, top ${TOP} functions\n` + start.top.join("\n"));
  for (const h of [0, 200]) {
    const dir = join(tmp, `prof-${h}`);
    const res = await spawnOne("ours", h, ["--cpu-prof", "--cpu-prof-dir", dir, "--cpu-prof-interval", "100"]);
    const { areas, top, inclusive } = summarize(join(dir, readdirSync(dir)[0]));
    console.log(`\n== Node, ours, history ${h}: ${res.msPerTurn.toFixed(3)} ms/turn (unstripped wasm; whole process incl. warm-up)`);
    console.log("-- self time by area\n" + areas.join("\n"));
    console.log(`-- self time, top ${TOP} functions\n` + top.join("\n"));
    console.log(`-- inclusive time, top ${TOP} Go functions of this module, syscall/js, encoding/json, gjson\n` + inclusive.join("\n"));
  }
  for (const h of [0, 200]) {
    const cpu = join(tmp, `go-${h}.prof`), bin = join(tmp, "core.test");
    execFileSync("go", ["test", "-run", "^$", "-bench", `BenchmarkLoop/history=${h}$`, "-benchtime", "2000x", "-cpuprofile", cpu, "-o", bin, "./core"], { cwd: root, stdio: "ignore" });
    console.log(`\n== native Go, BenchmarkLoop/history=${h}: pprof -top (cumulative)`);
    console.log(execFileSync("go", ["tool", "pprof", "-top", "-cum", `-nodecount=${TOP + 10}`, bin, cpu], { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }));
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
