// worker-profile.mjs — where the Worker's CPU goes on workerd: V8's sampling
// profiler on the Worker isolate (CDP over Miniflare's inspector port), over
// an unstripped copy of app.wasm so that Go functions have names.
//
//   node bench/worker-profile.mjs warm [requests=2000] [scenario=run|healthz]
//        requests after 50 warm-up requests: self time by area and function,
//        inclusive time of Go functions
//   node bench/worker-profile.mjs cold [starts=5]
//        a fresh workerd per start, the profiler on before the first POST
//        /v1/run; the profiles of all starts summed
//
// PROFILE_INTERVAL_US (100) is the sampling interval. PROFILE_OUT=file.cpuprofile also writes the profile (Chromium's DevTools
// open it). TOOLNEXUS_DIST names the dist folder (dist/worker is copied, its app.wasm
// replaced by an unstripped build of ./wasm/worker). PROFILE_TOP (25) sets how
// many functions are listed. A benchmark's tool: it prints, writes nothing.

import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startWorker, workerDir } from "../tests/worker-harness.mjs";
import { startWorkerMock } from "../tests/worker-mock.mjs";
import { summarize } from "./cpuprofile.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const INTERVAL_US = Number(process.env.PROFILE_INTERVAL_US ?? 100);
const RUN_BODY = JSON.stringify({ prompt: "add 2 and 3" });

const freePort = () => new Promise((ok) => {
  const s = createServer().listen(0, "127.0.0.1", () => { const { port } = s.address(); s.close(() => ok(port)); });
});

// session opens a CDP connection to the Worker isolate (target "core:user:")
// and returns send(method, params) → result, and close().
async function session(port) {
  const { default: WebSocket } = await import("ws"); // miniflare's own dependency
  const targets = await (await fetch(`http://127.0.0.1:${port}/json`)).json();
  const target = targets.find((t) => t.id === "core:user:") ?? targets[0];
  const ws = new WebSocket(target.webSocketDebuggerUrl, { maxPayload: 1 << 30 });
  await new Promise((ok, fail) => { ws.once("open", ok); ws.once("error", fail); });
  let next = 0;
  const waiting = new Map();
  ws.on("message", (m) => {
    const d = JSON.parse(m);
    const w = waiting.get(d.id);
    if (!w) return;
    waiting.delete(d.id);
    if (d.error) w.fail(new Error(d.error.message));
    else w.ok(d.result);
  });
  return {
    send: (method, params = {}) => new Promise((ok, fail) => {
      const id = ++next;
      waiting.set(id, { ok, fail });
      ws.send(JSON.stringify({ id, method, params }));
    }),
    close: () => ws.close(),
  };
}

// unstrippedCopy copies the built Worker folder and puts an unstripped
// app.wasm in it (with the build's post-link step, as ./build.sh worker).
function unstrippedCopy() {
  const tmp = mkdtempSync(join(tmpdir(), "bench-wprof-"));
  cpSync(workerDir, tmp, { recursive: true, dereference: false });
  const wasm = join(tmp, "build", "app.wasm");
  execFileSync("go", ["build", "-trimpath", "-gcflags=github.com/toolnexus/wasm/...=-l", "-o", wasm, "./wasm/worker"],
    { cwd: root, env: { ...process.env, GOOS: "js", GOARCH: "wasm" }, stdio: "inherit" });
  execFileSync("node", [join(root, "scripts", "wasm-findfunctab.mjs"), wasm, wasm], { stdio: "inherit" });
  execFileSync("node", [join(root, "scripts", "wasm-merge-data.mjs"), wasm, wasm], { stdio: "inherit" });
  return tmp;
}

const ENV = (mock) => ({
  LLM_BASE_URL: `${mock.url}/v1`, LLM_MODEL: "mock-model", LLM_API_KEY: "bench-key",
  STATE_SECRET: "bench-state-secret-0123456789abcdef",
});

async function request(url, scenario) {
  if (scenario === "healthz") {
    const res = await fetch(new URL("/healthz", url));
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`GET /healthz: ${res.status}`);
    return;
  }
  const res = await fetch(new URL("/v1/run", url), { method: "POST", headers: { "content-type": "application/json" }, body: RUN_BODY });
  const body = await res.json();
  if (res.status !== 200 || body.text !== "done: 5") throw new Error(`POST /v1/run: ${res.status} ${JSON.stringify(body)}`);
}

// merge adds profile b's nodes and samples to a (ids renumbered).
function merge(a, b) {
  if (!a) return b;
  const shift = Math.max(...a.nodes.map((n) => n.id));
  a.nodes.push(...b.nodes.map((n) => ({ ...n, id: n.id + shift, children: (n.children ?? []).map((c) => c + shift) })));
  a.samples.push(...b.samples.map((s) => s + shift));
  a.timeDeltas.push(...b.timeDeltas);
  return a;
}

function print(title, prof, per) {
  if (process.env.PROFILE_OUT) writeFileSync(process.env.PROFILE_OUT, JSON.stringify(prof));
  // workerd's sampler takes no sample while its isolate is not entered
  // (the time deltas then span idle time too): each sample counts once, as
  // one sampling interval of work.
  const { areas, top, inclusive } = summarize(prof, { perSample: true });
  const idle = new Set(prof.nodes.filter((n) => n.callFrame.functionName === "(idle)").map((n) => n.id));
  const busy = prof.samples.filter((id) => !idle.has(id)).length;
  console.log(`\n== ${title}: ${busy} samples of work (${(busy / per).toFixed(1)} per request, at most ${INTERVAL_US} µs each)`);
  console.log("-- self time by area\n" + areas.join("\n"));
  console.log("-- self time, top functions\n" + top.join("\n"));
  console.log("-- inclusive time, Go functions of this module, syscall/js, gjson\n" + inclusive.join("\n"));
}

async function profiled(dir, mock, fn) {
  const port = await freePort();
  const w = await startWorker(ENV(mock), { dir, inspectorPort: port });
  try {
    return await fn(w, port);
  } finally {
    await w.dispose();
  }
}

const [mode = "warm", nArg, scenario = "run"] = process.argv.slice(2);
const dir = unstrippedCopy();
const mock = await startWorkerMock();
try {
  if (mode === "cold") {
    const starts = Number(nArg ?? 5);
    let all = null;
    for (let i = 0; i < starts; i++) {
      all = merge(all, await profiled(dir, mock, async (w, port) => {
        const cdp = await session(port);
        try {
          await cdp.send("Profiler.enable");
          await cdp.send("Profiler.setSamplingInterval", { interval: INTERVAL_US });
          await cdp.send("Profiler.start");
          await request(w.url, "run");
          return (await cdp.send("Profiler.stop")).profile;
        } finally {
          cdp.close();
        }
      }));
    }
    print(`cold start: a fresh workerd's first POST /v1/run, ${starts} starts summed`, all, starts);
  } else {
    const n = Number(nArg ?? 2000);
    const prof = await profiled(dir, mock, async (w, port) => {
      for (let i = 0; i < 50; i++) await request(w.url, scenario);
      const cdp = await session(port);
      try {
        await cdp.send("Profiler.enable");
        await cdp.send("Profiler.setSamplingInterval", { interval: INTERVAL_US });
        await cdp.send("Profiler.start");
        for (let i = 0; i < n; i++) await request(w.url, scenario);
        return (await cdp.send("Profiler.stop")).profile;
      } finally {
        cdp.close();
      }
    });
    print(`warm: ${n} × ${scenario === "healthz" ? "GET /healthz" : "POST /v1/run (one tool turn)"} after 50 warm-up requests`, prof, n);
  }
} finally {
  await mock.close();
  rmSync(dir, { recursive: true, force: true });
}
