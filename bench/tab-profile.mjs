// tab-profile.mjs — where a turn goes in a page: Chromium's sampling
// profiler (CDP) over the loop of browser-entry.mjs (issue 7's scenario,
// ours or a peer) after its warm-up, with an unstripped toolnexus.wasm so
// that Go functions have names.
//
//   node bench/tab-profile.mjs [history=0] [runs=1000] [contender=ours]
//
// TOOLNEXUS_DIST names the dist folder (its web/ is copied, the wasm
// rebuilt unstripped from this checkout). PROFILE_OUT=file.cpuprofile
// keeps the profile; PROFILE_TOP (25) sets how many functions are listed.

import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";
import { serve } from "../scripts/serve.mjs";
import { summarize } from "./cpuprofile.mjs";

const here = fileURLToPath(new URL(".", import.meta.url));
const root = join(here, "..");
const dist = process.env.TOOLNEXUS_DIST ?? join(root, "dist");
const [history = "0", runs = "1000", name = "ours"] = process.argv.slice(2);
const FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync"];

const site = mkdtempSync(join(tmpdir(), "bench-tabprof-"));
try {
  cpSync(join(dist, "web"), join(site, "web"), { recursive: true });
  // The page loads toolnexus.wasm by its hashed name (web/wasm-urls.mjs): overwrite
  // whichever file that is with an unstripped build of the browser wasm.
  const unstripped = join(site, "unstripped.wasm");
  execFileSync("go", ["build", "-trimpath", "-o", unstripped, "./wasm/browser"], { cwd: root, env: { ...process.env, GOOS: "js", GOARCH: "wasm" }, stdio: "inherit" });
  const names = execFileSync("ls", [join(site, "web")], { encoding: "utf8" }).split("\n").filter((f) => /^toolnexus(\.[0-9a-f]+)?\.wasm$/.test(f));
  for (const f of names) {
    cpSync(unstripped, join(site, "web", f));
    rmSync(join(site, "web", `${f}.br`), { force: true }); // scripts/serve.mjs would send the stripped build's
  }
  mkdirSync(join(site, "bench-page"), { recursive: true });
  await build({ entryPoints: [join(here, "browser-entry.mjs")], outfile: join(site, "bench-page", "loop.js"),
    bundle: true, format: "esm", platform: "browser", target: "es2022", logLevel: "error", external: ["node:*"] });
  cpSync(join(here, "loop.html"), join(site, "bench-page", "loop.html"));
  const { chromium } = await import(pathToFileURL(join(root, "tests", "node_modules", "playwright-core", "index.mjs")).href);
  const server = await serve({ root: site, port: 0 });
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", headless: true, args: FLAGS });
  try {
    const page = await (await browser.newContext()).newPage();
    await page.goto(`${server.url}bench-page/loop.html`);
    await page.waitForFunction(() => typeof globalThis.benchLoop === "function");
    await page.evaluate(([n, h]) => globalThis.benchLoop(n, h, 300, 50), [name, Number(history)]); // warm up, tier up
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Profiler.enable");
    await cdp.send("Profiler.setSamplingInterval", { interval: 100 });
    await cdp.send("Profiler.start");
    const ms = await page.evaluate(([n, h, r]) => globalThis.benchLoop(n, h, r, 0), [name, Number(history), Number(runs)]);
    const { profile } = await cdp.send("Profiler.stop");
    if (process.env.PROFILE_OUT) writeFileSync(process.env.PROFILE_OUT, JSON.stringify(profile));
    const { areas, top, inclusive } = summarize(profile);
    console.log(`== chromium, ${name}, history ${history}: ${runs} runs under the profiler, ${ms.toFixed(3)} ms per turn`);
    console.log("-- self time by area\n" + areas.join("\n"));
    console.log("-- self time, top functions\n" + top.join("\n"));
    console.log("-- inclusive time, Go functions of this module, syscall/js, gjson\n" + inclusive.join("\n"));
  } finally {
    await browser.close();
    await server.close();
  }
} finally {
  rmSync(site, { recursive: true, force: true });
}
